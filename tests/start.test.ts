import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/lib/free-port";
import { client } from "./helpers/api";

/**
 * The service's own start (issue: `npm start` migrates, on an empty database creates the demo merchant and
 * prints its test key and a ready-to-run curl; configuration is validated with a clear message) and
 * `npm run db:migrate`, each on a fresh SQLite file. These start `node server.mjs` (what `npm start` runs
 * after installing and building) rather than the suites' shared servers, which are started without the seed.
 */
const dir = mkdtempSync(join(tmpdir(), "paygate-start-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ["server.mjs"], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
      NEXT_TELEMETRY_DISABLED: "1",
      HOSTNAME: "127.0.0.1",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d) => {
    stdout += d;
  });
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 60_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("starting the service", () => {
  it("on an empty database: migrates, creates the demo merchant, and the banner's curl creates a payment", async () => {
    const port = await freePort();
    const demoFile = join(dir, "demo.json");
    const server = start({
      PORT: String(port),
      DATABASE_URL: `file:${join(dir, "demo.db")}`,
      SEED_DEMO: "1",
      DEMO_MERCHANT_FILE: demoFile,
    });
    const banner = await until("the demo banner", () => {
      const { stdout } = server.output();
      return stdout.includes("/demo\n") ? stdout : undefined;
    });
    const key = /secret key: {2}(sk_test_[0-9A-Za-z]{32,})/.exec(banner)?.[1];
    expect(key).toBeDefined();
    expect(JSON.parse(readFileSync(demoFile, "utf8")).testSecretKey).toBe(key);
    // The banner's command, run as printed (the shell's quoting, the URL, the key and the body).
    const curl = /(curl -s -X POST [^\n]+\\\n[^\n]+\\\n[^\n]+)/.exec(banner)?.[1];
    expect(curl).toContain(`http://localhost:${port}/v1/payment/initialize`);
    const command = (curl ?? "").replaceAll("\\\n", " ").replace("localhost", "127.0.0.1");
    await until("the server to listen", () =>
      server.output().stdout.includes("listening") ? true : undefined,
    );
    const answer = JSON.parse(execFileSync("sh", ["-c", `${command} -w ''`], { encoding: "utf8" }));
    expect(answer.status).toBe("success");
    expect(answer.data).toMatchObject({ amount: "5000.00", currency: "NGN", status: "pending" });
    expect(answer.data.reference).toMatch(/^PAY_TXN_/);

    // The banner's email and password sign in to the merchant console.
    expect(banner).toContain(`http://localhost:${port}/dashboard/login`);
    const email = /email:\s+(\S+)/.exec(banner)?.[1];
    const password = /password:\s+(\S+)/.exec(banner)?.[1];
    expect(email).toBe("demo@paygate.test");
    expect(JSON.parse(readFileSync(demoFile, "utf8")).password).toBe(password);
    const origin = `http://127.0.0.1:${port}`;
    const login = await fetch(`${origin}/dashboard/api/auth/login`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.getSetCookie().join()).toMatch(/^paygate_session=mst_/);

    // A second start on the same database creates no second demo merchant and prints no key.
    server.child.kill("SIGTERM");
    await server.exited;
    const again = start({
      PORT: String(await freePort()),
      DATABASE_URL: `file:${join(dir, "demo.db")}`,
      SEED_DEMO: "1",
      DEMO_MERCHANT_FILE: demoFile,
    });
    await until("the second server to listen", () =>
      again.output().stdout.includes("listening") ? true : undefined,
    );
    expect(again.output().stdout).not.toContain("sk_test_");
  });

  it("refuses a wrong configuration with a message naming the variable and the rule, exit 1, no stack", async () => {
    for (const [env, expected] of [
      [{ PORT: "99999" }, "PORT: must be a whole number from 1 to 65535"],
      [{ PORT: String(await freePort()), DATABASE_URL: "mysql://x" }, "DATABASE_URL: must start with file:"],
      [
        {
          PORT: String(await freePort()),
          PAYMENTS_ENV: "production",
          DATABASE_URL: `file:${join(dir, "p.db")}`,
        },
        "APP_SECRET: is required when PAYMENTS_ENV=production",
      ],
    ] as const) {
      const server = start(env);
      const code = await Promise.race([
        server.exited,
        new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 60_000)),
      ]);
      const { stderr } = server.output();
      expect(code, stderr).toBe(1);
      expect(stderr).toContain("The service cannot start.");
      expect(stderr).toContain(expected);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("a port already taken: one line saying so and how to choose another, exit non-zero, no stack", async () => {
    const { createServer } = await import("node:net");
    const port = await freePort();
    const holder = createServer().listen(port, "127.0.0.1");
    await new Promise((r) => holder.once("listening", r));
    try {
      // One process and a cluster of two: the same one line.
      for (const workers of ["1", "2"]) {
        const server = start({
          PORT: String(port),
          WEB_CONCURRENCY: workers,
          DATABASE_URL: `file:${join(dir, `port-${workers}.db`)}`,
        });
        const code = await Promise.race([
          server.exited,
          new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 30_000)),
        ]);
        const { stderr } = server.output();
        expect(code, stderr).not.toBe(0);
        expect(code).not.toBe("timeout");
        expect(stderr.trim().split("\n")).toEqual([
          `Port ${port} is already in use on 127.0.0.1 (another server, perhaps another Paygate, is listening there). Stop it, or choose another port: PORT=${port + 1} npm start`,
        ]);
      }
    } finally {
      holder.close();
    }
  });

  it("serves only a build that exists: without one, one line saying how to make it, exit 1", async () => {
    const empty = mkdtempSync(join(tmpdir(), "paygate-no-build-"));
    try {
      const server = start({
        PORT: String(await freePort()),
        NEXT_DIST_DIR: relative(process.cwd(), empty),
        DATABASE_URL: `file:${join(dir, "no-build.db")}`,
      });
      expect(await server.exited).toBe(1);
      expect(server.output().stderr.trim()).toBe(
        `There is no build to serve in ${relative(process.cwd(), empty)}: run \`npm run build\` first (or \`npm start\`, which builds when needed).`,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("runs the expiry sweep: a checkout that expired unpaid is abandoned and verify says so", async () => {
    const port = await freePort();
    const file = join(dir, "expiry.db");
    const server = start({
      PORT: String(port),
      DATABASE_URL: `file:${file}`,
      SEED_DEMO: "0",
      CHECKOUT_EXPIRY_SWEEP_SECONDS: "1",
    });
    await until("the server to listen", () =>
      server.output().stdout.includes("listening") ? true : undefined,
    );
    const base = `http://127.0.0.1:${port}`;
    // Through the checked client: these answers are held to the OpenAPI document like every suite's.
    const api = client(base);
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
      (await api.post(path, body, headers)).body;
    const signup = await post("/v1/merchants/auth/signup", {
      businessName: "Sweep Shop",
      email: "sweep@example.com",
      password: "correct horse battery staple",
    });
    const key = signup.data.keys.test.secretKey as string;
    const init = await post("/v1/payment/initialize", { amount: "5000" }, { "x-api-key": key });
    const reference = init.data.reference as string;
    const status = async () =>
      (await api.get(`/v1/payment/verify/${reference}`, { "x-api-key": key })).body.data.status as string;
    expect(await status()).toBe("pending");
    // The checkout's day is over (a second connection to the server's SQLite file, as an operator's would be).
    const Database = (await import("better-sqlite3")).default;
    const sqlite = new Database(file);
    sqlite.pragma("busy_timeout = 5000");
    sqlite
      .prepare("update transactions set access_expires_at = ? where reference = ?")
      .run(Date.now() - 1000, reference);
    sqlite.close();
    // The sweep runs every second here: within a few the transaction is final.
    await until("the sweep", async () => ((await status()) === "abandoned" ? true : undefined), 10_000);
    expect(await status()).toBe("abandoned");
  });

  it("npm run db:migrate brings a fresh database to the latest schema, then finds it up to date", () => {
    const env = { ...process.env, DATABASE_URL: `file:${join(dir, "migrate.db")}` };
    const tsx = join("node_modules", ".bin", "tsx");
    const first = execFileSync(tsx, ["scripts/migrate.ts"], { env, encoding: "utf8" });
    expect(first).toMatch(/^Applied on sqlite: 0001_/);
    const second = execFileSync(tsx, ["scripts/migrate.ts"], { env, encoding: "utf8" });
    expect(second.trim()).toBe("The sqlite database is up to date.");
  });
});
