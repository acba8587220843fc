import { readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "../scripts/lib/server-process";
import { cleanupHarness, type DbKind, dbKinds, freshDatabase } from "./helpers/webhook-harness";

/**
 * The demo merchant's credentials belong to the database they were made in (README.md, docs/checkout.md).
 * `npm run qa:examples` starts a server on a throw-away database while `npm start` runs: its demo merchant
 * must not replace the running server's credentials file, so the demo sign-in and /demo keep working. And the
 * demo store keeps working after the merchant rolls the demo key in the console.
 *
 * Each server here starts as `npm start` does (SEED_DEMO, no DEMO_MERCHANT_FILE), each on a fresh database of
 * its own: a SQLite file (whose credentials file sits beside it) and, when TEST_DATABASE_URL is set, a
 * PostgreSQL database (whose credentials file is data/demo-merchant.<host>-<port>-<database>.json).
 */
const servers: ServerProcess[] = [];
const credentialFiles = new Set<string>();

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  // A PostgreSQL database's credentials file is in the repository's data/ folder: it goes with its database.
  for (const file of credentialFiles) rmSync(file, { force: true });
  await cleanupHarness();
});

type Demo = { server: ServerProcess; file: string };

/** A server on a fresh database of `kind`, and the credentials file its banner names. */
async function startDemo(kind: DbKind, name: string): Promise<Demo> {
  const database = await freshDatabase(kind);
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    APP_SECRET: `${name}-demo-app-secret-0123456789abcdefghijklmnopqrstuvwxyz`,
    SEED_DEMO: "1",
    WEB_CONCURRENCY: "1",
    LOG_LEVEL: "warn",
    CHECKOUT_EXPIRY_SWEEP_SECONDS: "0",
  };
  // As `npm start` and `npm run qa:examples` run: the file's place is the server's own default.
  delete process.env.DEMO_MERCHANT_FILE;
  const server = await startServer({ name: `${kind}-${name}`, env });
  servers.push(server);
  const file = /kept in (\S+?)\.?\n/.exec(server.output())?.[1];
  expect(file, server.output()).toBeDefined();
  credentialFiles.add(resolve(import.meta.dirname, "..", file as string));
  return { server, file: file as string };
}

function credentials(demo: Demo): { email: string; password: string; testSecretKey: string } {
  // The banner names the file as the server sees it, from the repository (its working directory).
  return JSON.parse(readFileSync(resolve(import.meta.dirname, "..", demo.file), "utf8"));
}

async function signIn(demo: Demo, email: string, password: string) {
  const res = await fetch(`${demo.server.url}/v1/merchants/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, body: (await res.json()) as { data?: { accessToken: string } } };
}

/**
 * Buy a product from the demo store as a browser without JavaScript would: the page's form posts to its
 * server action, which creates the payment with the demo key and redirects to checkout (or back to /demo
 * with the problem).
 */
function unescapeHtml(text: string): string {
  return text
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

async function buyFromDemo(demo: Demo): Promise<string> {
  const page = await (await fetch(`${demo.server.url}/demo`)).text();
  const form = /<form[^>]*>([\s\S]*?)<\/form>/.exec(page)?.[1];
  expect(form, page.slice(0, 500)).toBeDefined();
  const data = new FormData();
  for (const input of (form as string).matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? "";
    if (name) data.append(unescapeHtml(name), unescapeHtml(value));
  }
  data.append("product", "tote");
  data.append("email", "buyer@example.com");
  const res = await fetch(`${demo.server.url}/demo`, {
    method: "POST",
    body: data,
    headers: { origin: demo.server.url },
    redirect: "manual",
  });
  expect([303, 307], `${res.status} ${(await res.text()).slice(0, 300)}`).toContain(res.status);
  return res.headers.get("location") ?? "";
}

describe.each(dbKinds)("the demo merchant's credentials (%s)", (kind) => {
  it("stay with their database while another server starts on another database", async () => {
    const main = await startDemo(kind, "main");
    const mine = credentials(main);
    expect(mine.email).toBe("demo@paygate.test");
    expect((await signIn(main, mine.email, mine.password)).status).toBe(200);
    expect(await buyFromDemo(main)).toMatch(/\/pay\/[A-Za-z0-9_-]+/);

    // The QA kit's throw-away server starts beside it, on a database of its own.
    const other = await startDemo(kind, "throwaway");
    expect(other.file).not.toBe(main.file);
    expect(await buyFromDemo(other)).toMatch(/\/pay\/[A-Za-z0-9_-]+/);

    // The first server's credentials are still its own: the file it named still signs in to it.
    const after = credentials(main);
    expect(after).toEqual(mine);
    expect((await signIn(main, after.email, after.password)).status).toBe(200);
    expect(await buyFromDemo(main)).toMatch(/\/pay\/[A-Za-z0-9_-]+/);
  }, 180_000);

  it("keep the demo store selling after the demo merchant rolls its test key", async () => {
    const demo = await startDemo(kind, "rolled");
    const mine = credentials(demo);
    expect(await buyFromDemo(demo)).toMatch(/\/pay\/[A-Za-z0-9_-]+/);
    // The merchant rolls the demo key (as the console's API keys page does).
    const token = (await signIn(demo, mine.email, mine.password)).body.data?.accessToken;
    const rolled = await fetch(`${demo.server.url}/v1/merchants/keys/roll`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ mode: "test" }),
    });
    expect(rolled.status).toBe(200);
    // The old key, which the file still shows, is dead; the demo store pays with the new one.
    const old = await fetch(`${demo.server.url}/v1/payment/initialize`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": mine.testSecretKey },
      body: JSON.stringify({ amount: "100" }),
    });
    expect(old.status).toBe(401);
    expect(await buyFromDemo(demo), "the demo store pays with the rolled key").toMatch(
      /\/pay\/[A-Za-z0-9_-]+/,
    );
  }, 180_000);
});
