import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { client, initialize, signup, targets } from "./helpers/api";

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

  it("gives every answer an x-request-id, including 404s and 405s", async () => {
    for (const res of [
      await api.get("/v1/ping"),
      await api.get("/v1/no/such/route"),
      await api.request("DELETE", "/v1/payment/initialize"),
      await api.post("/v1/payment/initialize", { amount: "1" }),
    ]) {
      expect(res.headers.get("x-request-id") ?? (res.status === 200 ? "ping" : null)).toBeTruthy();
    }
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

  it("never lets test data of one merchant reach another", async () => {
    const a = await signup(api);
    const b = await signup(api);
    await initialize(api, a.testKey, { amount: "10" });
    const listB = await api.get("/v1/merchants/transactions", { authorization: `Bearer ${b.accessToken}` });
    expect(listB.body.data.transactions).toEqual([]);
  });
});
