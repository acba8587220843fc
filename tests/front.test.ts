import { request as httpRequest } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loaderCalls } from "../lib/http/paint-first.mjs";
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

/** The app chunks a page runs: `<script src>` the parser would run, and the paint-first loader's calls. */
function chunks(html: string) {
  return {
    parserRun: [...html.matchAll(/<script\b[^>]*\bsrc="(\/_next\/static\/[^"]+)"[^>]*>/g)]
      .filter((m) => !/nomodule/i.test(m[0]))
      .map((m) => m[1]),
    parserPreloaded: [...html.matchAll(/<link\b[^>]*\bas="script"[^>]*>/g)].map((m) => m[0]),
    queued: loaderCalls(html),
  };
}

describe.each(targets)("the front (server.mjs) on $name", (target) => {
  const api = client(target.url);

  it("serves the hosted pages with their app code held until the first paint, the amount in the HTML", async () => {
    const m = await signup(api);
    const init = await initialize(api, m.testKey, { amount: "5000", email: "payer@example.com" });
    const { accessCode } = init.body.data;
    for (const path of [`/pay/${accessCode}`, "/demo", "/dashboard/login"]) {
      const res = await rawGet(`${target.url}${path}`, { "accept-encoding": "identity" });
      expect(res.status, path).toBe(200);
      const html = res.body.toString("utf8");
      const found = chunks(html);
      expect(found.parserRun, `${path}: no app chunk for the parser to run`).toEqual([]);
      expect(found.parserPreloaded, `${path}: no app chunk preloaded beside the stylesheet`).toEqual([]);
      expect(found.queued.filter((c) => c[3] === 1).length, `${path}: scripts queued`).toBeGreaterThan(0);
      // Each queued chunk exists.
      for (const [src] of found.queued) {
        const chunk = await rawGet(`${target.url}${src}`, { "accept-encoding": "identity" });
        expect(chunk.status, src).toBe(200);
        expect(chunk.body.length, src).toBeGreaterThan(0);
      }
      // One loader, carrying the nonce the Content-Security-Policy names.
      const nonce = /'nonce-([^']+)'/.exec(String(res.headers["content-security-policy"]))?.[1];
      expect(nonce).toBeTruthy();
      const loaders = [...html.matchAll(/<script nonce="([^"]+)">\(function\(w,d\)\{if\(w\.__paintFirst\)/g)];
      expect(loaders).toHaveLength(1);
      expect(loaders[0]?.[1]).toBe(nonce);
    }
    const checkout = (await rawGet(`${target.url}/pay/${accessCode}`, {})).body.toString("utf8");
    expect(checkout).toContain("5,175.00");
  });

  it("compresses what the client accepts (Brotli, gzip), the page and the API alike, and the bytes decode to the same page", async () => {
    const m = await signup(api);
    const init = await initialize(api, m.testKey, { amount: "5000" });
    const url = `${target.url}/pay/${init.body.data.accessCode}`;
    const plain = await rawGet(url, { "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const br = await rawGet(url, { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    const gzip = await rawGet(url, { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    // The same page whole (each answer has its own nonce and ids, so compare what they must share).
    for (const [encoding, html] of [
      ["identity", plain.body.toString("utf8")],
      ["br", brotliDecompressSync(br.body).toString("utf8")],
      ["gzip", gunzipSync(gzip.body).toString("utf8")],
    ] as const) {
      expect(html.startsWith("<!DOCTYPE html>"), encoding).toBe(true);
      expect(html.trimEnd().endsWith("</html>"), encoding).toBe(true);
      expect(html.includes("NGN 5,175.00"), encoding).toBe(true);
      expect(chunks(html).queued, encoding).toEqual(chunks(plain.body.toString("utf8")).queued);
    }
    expect(br.body.length).toBeLessThan(plain.body.length / 3);

    // An API answer.
    const list = await rawGet(`${target.url}/v1/openapi.json`, { "accept-encoding": "gzip" });
    expect(list.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(list.body).toString("utf8")).openapi).toMatch(/^3\./);
  });
});
