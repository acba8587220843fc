import { request as httpRequest } from "node:http";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { client, initialize, randomAddress, signup, targets } from "./helpers/api";

/** A GET with exactly these headers (fetch would add and undo its own Accept-Encoding), bytes as sent. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    const req = httpRequest(url, { headers: { "x-forwarded-for": randomAddress(), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** What a page's HTML carries: its stylesheets (inline and linked), its app scripts, and its RSC payload. */
function parts(html: string) {
  const head = html.slice(0, html.indexOf("</head>"));
  return {
    inlineStyles: [...head.matchAll(/<style\b([^>]*)>([\s\S]*?)<\/style>/g)].map((m) => ({
      attributes: m[1] ?? "",
      css: m[2] ?? "",
    })),
    linkedStyles: [...html.matchAll(/<link\b[^>]*\b(?:rel="stylesheet"|as="style")[^>]*>/g)].map((m) => m[0]),
    scripts: [...html.matchAll(/<script\b[^>]*\bsrc="(\/_next\/static\/[^"]+)"[^>]*>/g)].map(
      (m) => m[1] ?? "",
    ),
    payload: [...html.matchAll(/self\.__next_f\.push\((.*?)\)<\/script>/gs)].map((m) => m[1]).join(""),
  };
}

describe.each(targets)("the front (server.mjs) on $name", (target) => {
  const api = client(target.url);

  it("sends the hosted pages with their stylesheet inline (the CSP's nonce, once, not in the RSC payload) and Next's own scripts", async () => {
    const m = await signup(api);
    const init = await initialize(api, m.testKey, { amount: "5000", email: "payer@example.com" });
    const { accessCode } = init.body.data;
    for (const path of [`/pay/${accessCode}`, "/demo", "/dashboard/login"]) {
      const res = await rawGet(`${target.url}${path}`, { "accept-encoding": "identity" });
      expect(res.status, path).toBe(200);
      const html = res.body.toString("utf8");
      const found = parts(html);
      const nonce = /'nonce-([^']+)'/.exec(String(res.headers["content-security-policy"]))?.[1];
      expect(nonce, path).toBeTruthy();
      // One stylesheet, in the <head>, carrying the nonce the Content-Security-Policy names; none linked.
      expect(found.inlineStyles, path).toHaveLength(1);
      const [style] = found.inlineStyles;
      expect(style?.attributes, path).toContain(`nonce="${nonce}"`);
      expect(style?.css.length, path).toBeGreaterThan(10_000);
      expect(found.linkedStyles, path).toEqual([]);
      // Its text is sent once: a rule from the middle of it is nowhere in the RSC payload.
      const rule = style?.css.slice(5_000, 5_060) ?? "";
      expect(found.payload.length, path).toBeGreaterThan(0);
      expect(found.payload.includes(rule), path).toBe(false);
      expect(html.split(rule).length - 1, path).toBe(1);
      // The app's code is React's own async scripts, each served.
      expect(found.scripts.length, path).toBeGreaterThan(0);
      for (const src of found.scripts) {
        const chunk = await rawGet(`${target.url}${src}`, { "accept-encoding": "identity" });
        expect(chunk.status, src).toBe(200);
        expect(chunk.body.length, src).toBeGreaterThan(0);
      }
    }
    const checkout = (await rawGet(`${target.url}/pay/${accessCode}`, {})).body.toString("utf8");
    expect(checkout).toContain("5,175.00");
  });

  it("compresses what the client accepts (gzip), the page and the API alike, and the bytes decode to the same page", async () => {
    const m = await signup(api);
    const init = await initialize(api, m.testKey, { amount: "5000" });
    const url = `${target.url}/pay/${init.body.data.accessCode}`;
    const plain = await rawGet(url, { "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const gzip = await rawGet(url, { "accept-encoding": "gzip, deflate, br" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
    // The same page whole (each answer has its own nonce and ids, so compare what they must share).
    for (const [encoding, html] of [
      ["identity", plain.body.toString("utf8")],
      ["gzip", gunzipSync(gzip.body).toString("utf8")],
    ] as const) {
      expect(html.startsWith("<!DOCTYPE html>"), encoding).toBe(true);
      expect(html.trimEnd().endsWith("</html>"), encoding).toBe(true);
      expect(html.includes("NGN 5,175.00"), encoding).toBe(true);
      expect(parts(html).scripts, encoding).toEqual(parts(plain.body.toString("utf8")).scripts);
    }
    expect(gzip.body.length).toBeLessThan(plain.body.length / 3);

    // An API answer.
    const list = await rawGet(`${target.url}/v1/openapi.json`, { "accept-encoding": "gzip" });
    expect(list.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(list.body).toString("utf8")).openapi).toMatch(/^3\./);
  });
});
