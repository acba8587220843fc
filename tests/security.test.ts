import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { client, initialize, randomAddress, signup, targets } from "./helpers/api";

describe.each(targets)("security floor on $name", (target) => {
  const api = client(target.url);

  it("keeps secret keys, session tokens, passwords and access codes out of the logs", async () => {
    const m = await signup(api);
    const init = await initialize(api, m.testKey, { amount: "10" });
    await api.get("/v1/payment/checkout/verify", { "x-access-code": init.body.data.accessCode });
    await api.get(`/v1/payment/verify/${init.body.data.reference}`, { authorization: `Bearer ${m.testKey}` });
    await api.get("/v1/merchants/settings", { authorization: `Bearer ${m.accessToken}` });
    await api.post("/v1/merchants/auth/login", { email: m.email, password: m.password });
    await new Promise((r) => setTimeout(r, 300)); // let the server's log lines reach the file
    const logs = readFileSync(target.logFile, "utf8");
    expect(logs).toContain(init.body.data.reference); // the logs are being written...
    for (const secret of [m.testKey, m.liveKey, m.accessToken, m.password, init.body.data.accessCode]) {
      expect(logs).not.toContain(secret); // ...and hold none of these
    }
  });

  it("a client cannot choose its own address: the front overwrites x-paygate-client-address", async () => {
    // One caller (one forwarded address, as the trusted proxy reports it) sending a different value of the
    // front's own header on every request: all of them count against the one address.
    const guesser = client(target.url, { address: randomAddress() });
    const statuses: number[] = [];
    for (let i = 0; i < 34; i++) {
      const res = await guesser.get("/v1/payment/checkout/verify", {
        "x-access-code": `${"D".repeat(24)}${i}`,
        "x-paygate-client-address": `198.51.100.${i + 1}`,
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("gives every answer an x-request-id, including 404s and 405s", async () => {
    for (const res of [
      await api.get("/v1/ping"),
      await api.get("/v1/no/such/route"),
      await api.request("DELETE", "/v1/payment/initialize"),
      await api.post("/v1/payment/initialize", { amount: "1" }),
    ]) {
      expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9A-Za-z]{20}$/);
    }
    // The hosted pages too (a 404 for an unknown access code, the demo store), each with an id of its own,
    // never one the client sent.
    const pages = [
      await api.get(`/pay/${"A".repeat(27)}`, { "x-request-id": "req_chosen_by_the_client" }),
      await api.get("/demo"),
      await api.get("/l/no-such-link"),
    ];
    for (const page of pages) expect(page.headers.get("x-request-id")).toMatch(/^req_[0-9A-Za-z]{20}$/);
    expect(new Set(pages.map((p) => p.headers.get("x-request-id"))).size).toBe(3);
    const missing = await api.get("/v1/no/such/route");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      status: "failed",
      error: "route_not_found",
      message: expect.stringContaining("/v1/no/such/route"),
    });
    const wrong = await api.request("DELETE", "/v1/payment/initialize");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    expect(wrong.body.error).toBe("method_not_allowed");
  });

  it("the hosted pages send the Referrer-Policy the documentation names, and every document names the same one", async () => {
    const m = await signup(api);
    const init = await initialize(api, m.testKey, { amount: "10" });
    const sent = new Set<string | null>();
    for (const path of [`/pay/${init.body.data.accessCode}`, "/demo", "/l/no-such-link", "/dashboard/login"])
      sent.add((await fetch(`${target.url}${path}`)).headers.get("referrer-policy"));
    expect([...sent]).toEqual(["same-origin"]);
    const root = join(import.meta.dirname, "..");
    for (const doc of ["docs/api.md", "docs/checkout.md"]) {
      const text = readFileSync(join(root, doc), "utf8").replace(/\s+/g, " ");
      const named = [...text.matchAll(/Referrer-Policy: ([a-z-]+)/g)].map((match) => match[1]);
      expect(named.length, doc).toBeGreaterThan(0);
      expect(new Set(named), doc).toEqual(new Set(["same-origin"]));
    }
  });

  it("never lets test data of one merchant reach another", async () => {
    const a = await signup(api);
    const b = await signup(api);
    await initialize(api, a.testKey, { amount: "10" });
    const listB = await api.get("/v1/merchants/transactions", { authorization: `Bearer ${b.accessToken}` });
    expect(listB.body.data.transactions).toEqual([]);
  });
});
