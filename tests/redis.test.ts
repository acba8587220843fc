import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/lib/free-port";
import { client } from "./helpers/api";
import { type Balancer, startBalancer } from "./helpers/balancer";
import { type AppProc, cleanupHarness, freshDatabase, startApp } from "./helpers/webhook-harness";

/**
 * With REDIS_URL set, the rate-limit budgets live in Redis: two instances behind a balancer spend from one
 * budget, and a Redis that cannot be reached makes requests 503, not 500 and not unlimited. Runs where a
 * Redis server is given (REDIS_TEST_URL; .ci/run starts one); a database of its own is used and emptied.
 */
const REDIS = process.env.REDIS_TEST_URL;

describe.skipIf(!REDIS)("rate limits in Redis", () => {
  let a: AppProc;
  let b: AppProc;
  let balancer: Balancer;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(REDIS as string);
    const db = await freshDatabase("sqlite");
    const env = { REDIS_URL: REDIS as string };
    a = await startApp({ name: "redis-a", databaseUrl: db.url, env });
    b = await startApp({ name: "redis-b", databaseUrl: db.url, env });
    balancer = await startBalancer([a.url, b.url]);
  }, 120_000);

  afterAll(async () => {
    await balancer?.close();
    await cleanupHarness();
    redis?.disconnect();
  });

  it("two instances spend one budget of failed logins, kept in Redis", async () => {
    const address = `10.99.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
    const api = client(balancer.url, { address });
    const call = async (body: unknown) => (await api.post("/v1/merchants/auth/login", body)).status;
    const statuses: number[] = [];
    // A different unknown email each time: the address's budget is measured, not an account's count.
    for (let i = 0; i < 13; i++)
      statuses.push(await call({ email: `nobody-${i}-${address}@example.com`, password: `wrong-${i}` }));
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(3).fill(429)]);
    expect(balancer.sent.every((n) => n >= 6)).toBe(true);
    expect(Number(await redis.get(`paygate:rl:login:${address}`))).toBeGreaterThanOrEqual(10);
  });

  it("a Redis that cannot be reached answers 503 service_unavailable, never a 500 or no limit", async () => {
    const db = await freshDatabase("sqlite");
    const nowhere = await freePort();
    const app = await startApp({
      name: "redis-down",
      databaseUrl: db.url,
      env: { REDIS_URL: `redis://127.0.0.1:${nowhere}` },
    });
    const res = await client(app.url, { address: "10.98.0.1" }).post("/v1/merchants/auth/login", {
      email: "nobody@example.com",
      password: "whatever-123",
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: "failed", error: "service_unavailable" });
    expect(res.headers.get("retry-after")).toBe("1");
  });
});
