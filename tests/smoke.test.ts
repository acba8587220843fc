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
