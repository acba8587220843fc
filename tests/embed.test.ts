import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { client, initialize, signup, targets } from "./helpers/api";

/** The embedded checkout over HTTP: its script, and the checkout's framing policy (proxy.ts). */
describe.each(targets)("embedded checkout on $name", ({ url }) => {
  const api = client(url);

  it("serves /v1/inline.js and /v1/inline.mjs: versioned, cacheable by ETag, at most 5 kB gzip", async () => {
    const script = await api.get("/v1/inline.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toBe("public, max-age=300, stale-while-revalidate=86400");
    expect(script.headers.get("access-control-allow-origin")).toBe("*");
    const version = script.headers.get("x-paygate-inline-version");
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(script.text.split("\n")[0]).toBe(`/*! Paygate inline checkout ${version} */`);
    expect(script.text).toContain("window.Paygate = Object.freeze(");
    expect(gzipSync(script.text, { level: 6 }).length).toBeLessThanOrEqual(5 * 1024);
    const etag = script.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[\w-]+"$/);
    const cached = await api.get("/v1/inline.js", { "if-none-match": etag });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe("");
    expect((await api.get("/v1/inline.js", { "if-none-match": '"other"' })).status).toBe(200);

    const module = await api.get("/v1/inline.mjs");
    expect(module.status).toBe(200);
    expect(module.text).toContain("export function open(");
    expect(module.headers.get("etag")).toBe(etag);

    const posted = await api.post("/v1/inline.js", {});
    expect(posted.status).toBe(405);
    expect(posted.body).toMatchObject({ status: "failed", error: "method_not_allowed" });
  });

  it("frames the checkout by exactly the merchant's origins when one of them opens it embedded, by none otherwise", async () => {
    const m = await signup(api);
    const put = await api.put(
      "/v1/merchants/settings",
      { embedOrigins: ["https://shop.example", "http://localhost:5173"] },
      { authorization: `Bearer ${m.accessToken}` },
    );
    expect(put.status, put.text).toBe(200);
    const init = await initialize(api, m.testKey, { amount: "100.00" });
    const code = init.body.data.accessCode as string;
    const page = async (query: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${url}/pay/${code}${query}`, { headers });
      expect(res.status).toBe(200);
      const csp = res.headers.get("content-security-policy") ?? "";
      return {
        frameAncestors: /frame-ancestors ([^;]+)/.exec(csp)?.[1],
        xfo: res.headers.get("x-frame-options"),
        rest: csp.replace(/frame-ancestors [^;]+/, "").replace(/'nonce-[^']+'/g, "'nonce'"),
        html: await res.text(),
      };
    };
    const plain = await page("");
    expect(plain).toMatchObject({ frameAncestors: "'none'", xfo: "DENY" });
    const embedded = await page(`?embed=1&origin=${encodeURIComponent("https://shop.example")}`);
    expect(embedded).toMatchObject({
      frameAncestors: "https://shop.example http://localhost:5173",
      xfo: null,
      rest: plain.rest,
    });
    // The embedded page's own links keep it embedded (the tabs' hrefs, before its code runs).
    expect(embedded.html).toContain("embed=1&amp;origin=https%3A%2F%2Fshop.example");
    for (const query of [
      `?embed=1&origin=${encodeURIComponent("https://evil.example")}`,
      `?origin=${encodeURIComponent("https://shop.example")}`,
      "?embed=1",
    ])
      expect(await page(query), query).toMatchObject({ frameAncestors: "'none'", xfo: "DENY" });
    // A client cannot say for the proxy that the page is embedded.
    const forged = await page("", { "x-embed-origin": "https://evil.example" });
    expect(forged).toMatchObject({ frameAncestors: "'none'", xfo: "DENY" });
    expect(forged.html).not.toContain("evil.example");
    // Another merchant's origins say nothing about this checkout.
    const other = await page(`?embed=1&origin=${encodeURIComponent("http://localhost:5174")}`);
    expect(other.frameAncestors).toBe("'none'");
  });
});
