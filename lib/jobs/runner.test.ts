import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The job runner (lib/jobs) on SQLite, and on PostgreSQL when TEST_DATABASE_URL names a server: claims are
 * exclusive across real processes, a claim whose holder died is taken over after its lease (and one whose
 * holder is alive is renewed), a failed
 * recurring run is rescheduled with backoff, and shutdown waits for a running job (up to its bound).
 */
const dir = mkdtempSync(join(tmpdir(), "paygate-jobs-"));
const sqliteUrl = `file:${join(dir, "jobs.db")}`;
process.env.DATABASE_URL = sqliteUrl;
process.env.APP_SECRET = "jobs-test-secret-0123456789abcdefghijklmnopqrstuvwxyz";
process.env.LOG_LEVEL = "silent";

const { openDatabase } = await import("@/lib/db/client");
const { migrateToLatest } = await import("@/lib/db/migrate");
const { claimDue } = await import("./claim");
const { backoffMs } = await import("./backoff");
const { jobMetrics, queueJob, recurringJob, startJobs, stopJobs, wakeJob } = await import("./runner");

type Handle = ReturnType<typeof openDatabase>;
const globalDb = globalThis as unknown as { __paygateDb?: Handle };
const children: ChildProcess[] = [];
const drops: Array<() => Promise<void>> = [];

async function freshPostgres(adminUrl: string): Promise<string> {
  // The prefix tests/setup/servers.ts drops when a killed run left such a database behind.
  const name = `paygate_test_${Date.now()}_${process.pid}_jobs`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.end());
  drops.push(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => c.end());
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const targets: Array<{ name: string; url: () => Promise<string> }> = [
  { name: "sqlite", url: async () => sqliteUrl },
];
const adminUrl = process.env.TEST_DATABASE_URL;
if (adminUrl) targets.push({ name: "postgres", url: () => freshPostgres(adminUrl) });

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await globalDb.__paygateDb?.db.destroy();
  globalDb.__paygateDb = undefined;
  await new Promise((r) => setTimeout(r, 250));
  for (const drop of drops) await drop();
  rmSync(dir, { recursive: true, force: true });
});

/** Start tests/helpers/job-claimant.ts in a process of its own on `url`; resolves once it printed `ready`. */
function claimant(url: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/job-claimant.ts", ...args], {
    env: { ...process.env, DATABASE_URL: url, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  let err = "";
  child.stdout?.on("data", (d) => {
    out += String(d);
  });
  child.stderr?.on("data", (d) => {
    err += String(d);
  });
  const until = (text: string, ms = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const look = setInterval(() => {
        if (out.includes(text)) {
          clearInterval(look);
          resolve();
        } else if (child.exitCode !== null || Date.now() - started > ms) {
          clearInterval(look);
          reject(new Error(`claimant: no "${text}" (exit ${child.exitCode}): ${out} ${err}`));
        }
      }, 20);
    });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, until, exited, output: () => out };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

function receipt(id: string, dueAt: number) {
  return {
    id,
    transaction_id: `tx_${id}`,
    attempt_id: null,
    kind: "customer",
    recipient: "payer@example.com",
    status: "pending",
    attempts: 0,
    due_at: dueAt,
    locked_until: null,
    error: null,
    created_at: dueAt,
    sent_at: null,
  };
}

describe("backoff", () => {
  it("doubles from its base and stops at its ceiling", () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, 1_000, 10_000))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ]);
    expect(backoffMs(0, 500, 60_000)).toBe(500);
    expect(backoffMs(200, 500, 60_000)).toBe(60_000);
  });
});

describe.each(targets)("the job runner on $name", (target) => {
  let url = "";
  let db: Handle["db"];

  beforeAll(async () => {
    await globalDb.__paygateDb?.db.destroy();
    url = await target.url();
    globalDb.__paygateDb = openDatabase(url);
    db = globalDb.__paygateDb.db;
    await migrateToLatest(db);
  });

  it("gives each due row to exactly one of two processes claiming at once", async () => {
    const now = Date.now();
    const ids = Array.from({ length: 600 }, (_, i) => `rcpt_claim_${String(i).padStart(3, "0")}`);
    await db
      .insertInto("receipts")
      .values(ids.map((id) => receipt(id, now - 1_000)))
      .execute();
    const go = join(dir, `go-${target.name}`);
    const a = claimant(url, ["claim", "60000"], { GO_FILE: go });
    const b = claimant(url, ["claim", "60000"], { GO_FILE: go });
    await Promise.all([a.until("ready"), b.until("ready")]);
    // Both are running and waiting: they start claiming at the same moment.
    writeFileSync(go, "go");
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
    const lastLine = (out: string) => JSON.parse(out.trim().split("\n").at(-1) as string) as string[];
    const [fromA, fromB] = [lastLine(a.output()), lastLine(b.output())];
    // Each row once, and both processes got some (their claims really overlapped).
    expect([...fromA, ...fromB].sort()).toEqual(ids);
    expect(new Set([...fromA, ...fromB]).size).toBe(ids.length);
    expect(fromA.length).toBeGreaterThan(0);
    expect(fromB.length).toBeGreaterThan(0);
    const rows = await db.selectFrom("receipts").select("status").where("id", "in", ids).execute();
    expect(rows.every((r) => r.status === "sending")).toBe(true);
  });

  it("runs a recurring job once per interval for the database, never in two processes at once", async () => {
    const name = `tick-${target.name}`;
    await db
      .insertInto("jobs")
      .values({ id: name, status: "pending", due_at: Date.now(), attempts: 0 })
      .execute();
    const go = join(dir, `tick-${target.name}`);
    const a = claimant(url, ["tick", name, "300", "4000"], { GO_FILE: go });
    const b = claimant(url, ["tick", name, "300", "4000"], { GO_FILE: go });
    await Promise.all([a.until("ready"), b.until("ready")]);
    writeFileSync(go, "go");
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
    const runs = (out: string) =>
      [...out.matchAll(/^run (\d+) (\d+)$/gm)].map((m) => [Number(m[1]), Number(m[2])] as const);
    const all = [...runs(a.output()), ...runs(b.output())].sort((x, y) => x[0] - y[0]);
    console.log(
      `[${target.name}] every 300 ms for 4 s in two processes: ${runs(a.output()).length} + ${runs(b.output()).length} runs`,
    );
    // Two processes, 4 s, every 300 ms: about 12 runs in all (not 24), one after another.
    expect(all.length).toBeGreaterThanOrEqual(6);
    expect(all.length).toBeLessThanOrEqual(15);
    for (let i = 1; i < all.length; i++) {
      const [start] = all[i] as readonly [number, number];
      const [, previousEnd] = all[i - 1] as readonly [number, number];
      expect(start).toBeGreaterThanOrEqual(previousEnd);
    }
  });

  it("takes a claimed row over once its lease has run out, not before", async () => {
    const now = Date.now();
    await db.insertInto("receipts").values(receipt("rcpt_lease", now)).execute();
    const first = await claimDue("receipts", { now, limit: 10, leaseMs: 1_000, ids: ["rcpt_lease"] });
    expect(first.rows.map((r) => r.id)).toEqual(["rcpt_lease"]);
    expect(first.takenOver).toBe(0);
    // Still held: nobody else gets it.
    const held = await claimDue("receipts", {
      now: now + 999,
      limit: 10,
      leaseMs: 1_000,
      ids: ["rcpt_lease"],
    });
    expect(held.rows).toEqual([]);
    // The holder is presumed dead: the next claimant takes it.
    const later = await claimDue("receipts", {
      now: now + 1_001,
      limit: 10,
      leaseMs: 1_000,
      ids: ["rcpt_lease"],
    });
    expect(later.rows.map((r) => r.id)).toEqual(["rcpt_lease"]);
    expect(later.takenOver).toBe(1);
    expect(Number(later.rows[0]?.locked_until)).toBe(now + 1_001 + 1_000);
  });

  it("runs a recurring job in another process once the process that held it was killed", async () => {
    const name = `held-${target.name}`;
    await db
      .insertInto("jobs")
      .values({ id: name, status: "pending", due_at: Date.now(), attempts: 0 })
      .execute();
    const holder = claimant(url, ["hold", name, "1500"]);
    await holder.until("running");
    // While the holder lives it renews its lease: the job is not run here.
    const runs: number[] = [];
    const job = recurringJob({
      name,
      title: "held job",
      everyMs: 60_000,
      leaseMs: 1_500,
      run: async () => {
        runs.push(Date.now());
      },
    });
    startJobs([job]);
    await sleep(2_500);
    expect(runs).toEqual([]);
    const killedAt = Date.now();
    holder.child.kill("SIGKILL");
    await holder.exited;
    await waitFor("the job run here", async () => runs.length === 1);
    // Within the lease (1.5 s) and the runner's look (the lease's end, at least every 100 ms).
    expect((runs[0] as number) - killedAt).toBeLessThan(4_000);
    expect(jobMetrics()[name]?.takenOver).toBe(1);
    const row = await db.selectFrom("jobs").selectAll().where("id", "=", name).executeTakeFirstOrThrow();
    await waitFor("the run recorded", async () => {
      const r = await db.selectFrom("jobs").selectAll().where("id", "=", name).executeTakeFirstOrThrow();
      return r.status === "pending" && r.finished_at !== null;
    });
    expect(row.id).toBe(name);
    await stopJobs(5_000);
    const after = await db.selectFrom("jobs").selectAll().where("id", "=", name).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ status: "pending", attempts: 0, error: null, locked_until: null });
    expect(Number(after.due_at)).toBeGreaterThan(Date.now() + 50_000);
  });

  it("renews the lease of a run that outlasts it, so no other claimant takes the job meanwhile", async () => {
    const name = `long-${target.name}`;
    await db
      .insertInto("jobs")
      .values({ id: name, status: "pending", due_at: Date.now(), attempts: 0 })
      .execute();
    let done = false;
    startJobs([
      recurringJob({
        name,
        title: "long job",
        everyMs: 60_000,
        leaseMs: 300,
        run: async () => {
          await sleep(1_500);
          done = true;
        },
      }),
    ]);
    await waitFor("the job claimed", async () => {
      const r = await db.selectFrom("jobs").select("status").where("id", "=", name).executeTakeFirstOrThrow();
      return r.status === "running";
    });
    // Another process's claims, all through the run: five leases long, never free.
    const stolen: number[] = [];
    while (!done) {
      const { rows } = await claimDue("jobs", { ids: [name], limit: 1, leaseMs: 300, claimed: "running" });
      stolen.push(rows.length);
      await sleep(50);
    }
    expect(stolen.length).toBeGreaterThan(10);
    expect(stolen.every((n) => n === 0)).toBe(true);
    await stopJobs(5_000);
    const row = await db.selectFrom("jobs").selectAll().where("id", "=", name).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "pending", attempts: 0, locked_until: null });
    expect(row.finished_at).not.toBeNull();
    expect(jobMetrics()[name]).toMatchObject({ claimed: 1, finished: 1, takenOver: 0 });
  });

  it("reschedules a failed recurring run with backoff, and on its interval once it succeeds", async () => {
    const name = `flaky-${target.name}`;
    await db
      .insertInto("jobs")
      .values({ id: name, status: "pending", due_at: Date.now(), attempts: 0 })
      .execute();
    const runs: number[] = [];
    startJobs([
      recurringJob({
        name,
        title: "flaky job",
        everyMs: 60_000,
        leaseMs: 10_000,
        run: async () => {
          runs.push(Date.now());
          if (runs.length <= 2) throw new Error(`failure ${runs.length}`);
        },
      }),
    ]);
    const row = () => db.selectFrom("jobs").selectAll().where("id", "=", name).executeTakeFirstOrThrow();
    const first = await waitFor("the first failure recorded", async () => {
      const r = await row();
      return r.attempts === 1 && r.status === "pending" ? r : undefined;
    });
    expect(first.error).toBe("failure 1");
    expect(Number(first.due_at) - (runs[0] as number)).toBeGreaterThanOrEqual(1_000);
    expect(Number(first.due_at) - (runs[0] as number)).toBeLessThan(1_500);
    const second = await waitFor("the second failure recorded", async () => {
      const r = await row();
      return r.attempts === 2 && r.status === "pending" ? r : undefined;
    });
    expect(second.error).toBe("failure 2");
    // 1 s after the first failure, 2 s after the second.
    expect((runs[1] as number) - (runs[0] as number)).toBeGreaterThanOrEqual(990);
    expect(Number(second.due_at) - (runs[1] as number)).toBeGreaterThanOrEqual(2_000);
    expect(Number(second.due_at) - (runs[1] as number)).toBeLessThan(2_500);
    const third = await waitFor("the run that succeeded recorded", async () => {
      const r = await row();
      return r.attempts === 0 && r.finished_at !== null ? r : undefined;
    });
    expect((runs[2] as number) - (runs[1] as number)).toBeGreaterThanOrEqual(1_990);
    expect(third.error).toBeNull();
    expect(Number(third.due_at) - (runs[2] as number)).toBeGreaterThanOrEqual(60_000);
    expect(jobMetrics()[name]).toMatchObject({ claimed: 3, failed: 2, finished: 1, running: 0 });
    await stopJobs(5_000);
    expect(runs).toHaveLength(3);
  });

  it("stops claiming on shutdown and waits for the run under way to finish and be recorded", async () => {
    const name = `queue-${target.name}`;
    const now = Date.now();
    const ids = ["rcpt_stop_1", "rcpt_stop_2", "rcpt_stop_3"];
    await db
      .insertInto("receipts")
      .values(ids.map((id) => receipt(id, now)))
      .execute();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: string[] = [];
    startJobs([
      queueJob<{ id: string }>({
        name,
        title: "test queue",
        claim: async (limit) =>
          (await claimDue("receipts", { limit, leaseMs: 60_000, ids })).rows.map((r) => ({ id: r.id })),
        run: async (item) => {
          started.push(item.id);
          await gate;
          await sleep(200);
          await db
            .updateTable("receipts")
            .set({ status: "sent", sent_at: Date.now() })
            .where("id", "=", item.id)
            .execute();
        },
        concurrency: 1,
        batch: 1,
        idleMs: 50,
        errorPauseMs: 50,
      }),
    ]);
    await waitFor("the first row running", async () => started.length === 1);
    const stopping = stopJobs(10_000);
    let stopped = false;
    void stopping.then(() => {
      stopped = true;
    });
    await sleep(300);
    // The run holds the shutdown until it is done.
    expect(stopped).toBe(false);
    release();
    await stopping;
    const rows = await db
      .selectFrom("receipts")
      .select(["id", "status"])
      .where("id", "in", ids)
      .orderBy("id")
      .execute();
    // The one it was running is recorded; the others were never claimed, left for another process.
    expect(rows).toEqual([
      { id: "rcpt_stop_1", status: "sent" },
      { id: "rcpt_stop_2", status: "pending" },
      { id: "rcpt_stop_3", status: "pending" },
    ]);
    expect(started).toEqual(["rcpt_stop_1"]);
  });

  it("gives up waiting at the shutdown bound, leaving a run that hangs to its lease", async () => {
    const name = `hang-${target.name}`;
    await db
      .insertInto("jobs")
      .values({ id: name, status: "pending", due_at: Date.now(), attempts: 0 })
      .execute();
    let running = false;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    startJobs([
      recurringJob({
        name,
        title: "hanging job",
        everyMs: 60_000,
        leaseMs: 5_000,
        run: async () => {
          running = true;
          await gate;
        },
      }),
    ]);
    await waitFor("the job running", async () => running);
    const started = Date.now();
    await stopJobs(300);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(1_500);
    expect(jobMetrics()[name]?.running).toBe(1);
    const row = await db.selectFrom("jobs").selectAll().where("id", "=", name).executeTakeFirstOrThrow();
    expect(row.status).toBe("running");
    expect(Number(row.locked_until)).toBeGreaterThan(Date.now());
    // Once it ends after all, its outcome is still recorded under the lease it holds.
    release();
    await waitFor("the late run recorded", async () => {
      const r = await db.selectFrom("jobs").selectAll().where("id", "=", name).executeTakeFirstOrThrow();
      return r.status === "pending" && r.finished_at !== null;
    });
  });

  it("wakes an idle queue job at once when work is queued in the process", async () => {
    const name = `wake-${target.name}`;
    const seen: number[] = [];
    let queued = false;
    startJobs([
      queueJob<number>({
        name,
        title: "wake test",
        claim: async () => {
          if (!queued) return [];
          queued = false;
          return [Date.now()];
        },
        run: async (at) => {
          seen.push(Date.now() - at);
        },
        concurrency: 1,
        batch: 1,
        idleMs: 60_000,
        errorPauseMs: 60_000,
      }),
    ]);
    await sleep(200);
    const wokenAt = Date.now();
    queued = true;
    wakeJob(name);
    await waitFor("the queued work run", async () => seen.length === 1, 5_000);
    expect(Date.now() - wokenAt).toBeLessThan(1_000);
    await stopJobs(1_000);
  });
});
