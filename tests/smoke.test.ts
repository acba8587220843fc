import { describe, expect, it } from "vitest";
import { client, initialize, signup, targets } from "./helpers/api";

describe.each(targets)("smoke on $name", ({ url }) => {
  it("signs up, initializes and verifies", async () => {
    const api = client(url);
    const m = await signup(api);
    const init = await initialize(api, m.testKey, { amount: "100.00" });
    expect(init.status).toBe(201);
    const verify = await api.get(`/v1/payment/verify/${init.body.data.reference}`, {
      "x-api-key": m.testKey,
    });
    expect(verify.status).toBe(200);
    expect(verify.body.data.status).toBe("pending");
  });
});

describe.each(targets)("static files on $name", ({ url }) => {
  it("serves robots.txt from public/, keeping checkout and link pages out of search indexes", async () => {
    const res = await fetch(`${url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const lines = (await res.text()).split("\n");
    for (const rule of ["User-agent: *", "Disallow: /pay/", "Disallow: /l/", "Disallow: /v1/"])
      expect(lines).toContain(rule);
  });
});
