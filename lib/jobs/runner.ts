import { db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { processState } from "@/lib/process-state";
import { backoffMs } from "./backoff";
import { claimDue } from "./claim";

/**
 * The one runner of background work in a process (docs/decisions/010-job-runner.md). Two kinds of job:
 *
 *  - a **queue** job works through rows of a work table (the webhook deliveries, the receipts): it claims due
 *    rows (lib/jobs/claim.ts), runs up to `concurrency` of them at once and claims more as slots free. What a
 *    row's run records, and when a failed row is tried again, is the job's own (the webhook schedule, the
 *    receipt delays); a row whose run dies with its process is claimed again once its lease runs out.
 *  - a **recurring** job runs every `everyMs` across all the processes sharing the database: its row in
 *    `jobs` is claimed by one process at a time for `leaseMs` (renewed while it runs), then rescheduled
 *    `everyMs` later, or after a failure sooner, with backoff (1 s doubling, never later than `everyMs`).
 *
 * `later` runs one piece of work at a set time in this process (a refund due in two seconds). `stopJobs`
 * stops claiming, cancels what `later` holds, and waits for what is running, up to a bound. Every job's
 * start, stop, failures and lease takeovers are logged here, and counted in `jobMetrics`.
 */
export type QueueJob<T> = {
  kind: "queue";
  name: string;
  /** What the logs call it ("webhook relay"). */
  title: string;
  /** Claim up to `limit` due rows for this process. */
  claim: (limit: number) => Promise<T[]>;
  /** Run one claimed row and record its outcome. */
  run: (item: T) => Promise<unknown>;
  /** Rows run at once in this process. */
  concurrency: number;
  /** Rows claimed in one go (at most the free slots). */
  batch: number;
  /** How long an idle loop waits before it looks again (`wakeJob` cuts it short). */
  idleMs: number;
  /** How long it waits after a claim failed (the database is away). */
  errorPauseMs: number;
  /** Fields that name a row in a log line. */
  describe?: (item: T) => Record<string, unknown>;
};

export type RecurringJob = {
  kind: "recurring";
  name: string;
  /** What the logs call it ("checkout expiry sweep"). */
  title: string;
  everyMs: number;
  /**
   * How long a claim holds without renewal (it is renewed every third of it while the job runs): a process
   * that died running the job loses it after this. Three intervals, between 2 s and 30 s, unless given.
   */
  leaseMs?: number;
  run: () => Promise<void>;
};

export type Job = QueueJob<never> | RecurringJob;

/** A queue job, typed by its rows. */
export function queueJob<T>(job: Omit<QueueJob<T>, "kind">): Job {
  return { kind: "queue", ...job } as unknown as Job;
}

export function recurringJob(job: Omit<RecurringJob, "kind">): Job {
  return { kind: "recurring", leaseMs: Math.min(30_000, Math.max(2_000, 3 * job.everyMs)), ...job };
}

export type JobCounters = {
  /** Rows (or runs) this process claimed. */
  claimed: number;
  finished: number;
  failed: number;
  /** Claims taken over from a process whose lease ran out. */
  takenOver: number;
  /** Running now. */
  running: number;
};

type Loop = { stop: boolean; done: Promise<void>; wake: () => void };

const state = processState("jobs.runner", () => ({
  loops: new Map<string, Loop>(),
  counters: new Map<string, JobCounters>(),
  /** Wake-ups asked for before the loop slept (or started): the next sleep returns at once. */
  wakeups: new Set<string>(),
  timers: new Set<ReturnType<typeof setTimeout>>(),
  later: new Set<Promise<void>>(),
  stopped: false,
}));

function counters(name: string): JobCounters {
  let c = state.counters.get(name);
  if (!c) {
    c = { claimed: 0, finished: 0, failed: 0, takenOver: 0, running: 0 };
    state.counters.set(name, c);
  }
  return c;
}

/** This process's counters per job, since it started. */
export function jobMetrics(): Record<string, JobCounters> {
  return Object.fromEntries([...state.counters].map(([name, c]) => [name, { ...c }]));
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Cut a job's idle wait short: work was just queued in this process. */
export function wakeJob(name: string): void {
  const loop = state.loops.get(name);
  if (loop) loop.wake();
  else state.wakeups.add(name);
}

/** Wait `ms`, or less when the job is woken or stopped. */
function sleep(name: string, loop: Loop, ms: number): Promise<void> {
  if (state.wakeups.delete(name) || loop.stop) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      loop.wake = () => state.wakeups.add(name);
      resolve();
    }
    loop.wake = done;
  });
}

/** Start these jobs in this process (a job already running is left as it is). */
export function startJobs(jobs: Job[]): void {
  state.stopped = false;
  for (const job of jobs) {
    if (state.loops.has(job.name)) continue;
    const loop: Loop = { stop: false, done: Promise.resolve(), wake: () => state.wakeups.add(job.name) };
    state.loops.set(job.name, loop);
    counters(job.name);
    loop.done = (job.kind === "queue" ? runQueue(job, loop) : runRecurring(job, loop))
      .catch((err) => log.error("job stopped by an error", { job: job.name, error: message(err) }))
      .finally(() => state.loops.delete(job.name));
    log.info(`${job.title} started`, {
      job: job.name,
      kind: job.kind,
      ...(job.kind === "recurring" ? { everyMs: job.everyMs } : { concurrency: job.concurrency }),
      pid: process.pid,
    });
  }
}

async function runQueue(job: QueueJob<never>, loop: Loop): Promise<void> {
  const count = counters(job.name);
  const inFlight = new Set<Promise<void>>();
  while (!loop.stop) {
    const room = job.concurrency - inFlight.size;
    let claimed: never[] = [];
    let failed = false;
    if (room > 0) {
      try {
        claimed = await job.claim(Math.min(job.batch, room));
      } catch (err) {
        failed = true;
        log.error("job claim failed", { job: job.name, error: message(err) });
      }
    }
    count.claimed += claimed.length;
    for (const item of claimed) {
      count.running++;
      const running: Promise<void> = job
        .run(item)
        .then(
          () => {
            count.finished++;
          },
          (err) => {
            // Left claimed: claimed again once its lease runs out, here or in another process.
            count.failed++;
            log.error("job run failed", { job: job.name, ...job.describe?.(item), error: message(err) });
          },
        )
        .finally(() => {
          count.running--;
          inFlight.delete(running);
          // The loop may be asleep because every slot was taken: one is free now.
          if (inFlight.size === job.concurrency - 1) loop.wake();
        });
      inFlight.add(running);
    }
    if (claimed.length === 0 && !loop.stop)
      await sleep(job.name, loop, failed ? job.errorPauseMs : job.idleMs);
  }
  await Promise.allSettled(inFlight);
}

const lease = (job: RecurringJob) => job.leaseMs ?? 30_000;

/** The shortest wait between two looks at a recurring job's row. */
const MIN_POLL_MS = 100;
/** The first retry after a recurring job failed; it doubles with each failure in a row, up to `everyMs`. */
const RETRY_BASE_MS = 1_000;

async function runRecurring(job: RecurringJob, loop: Loop): Promise<void> {
  const count = counters(job.name);
  // A job new to this database is first due one interval from now, as a timer started now would be.
  await db()
    .insertInto("jobs")
    .values({ id: job.name, status: "pending", due_at: Date.now() + job.everyMs, attempts: 0 })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute()
    .catch((err) => log.error("job claim failed", { job: job.name, error: message(err) }));
  while (!loop.stop) {
    let wait = job.everyMs;
    try {
      const { rows, takenOver } = await claimDue("jobs", {
        ids: [job.name],
        limit: 1,
        leaseMs: lease(job),
        claimed: "running",
      });
      const row = rows[0];
      if (row) {
        count.claimed++;
        if (takenOver > 0) {
          count.takenOver++;
          log.warn("job lease expired; run taken over", { job: job.name });
        }
        await runOnce(job, Number(row.locked_until), row.attempts, count);
      }
      const next = await db()
        .selectFrom("jobs")
        .select(["status", "due_at", "locked_until"])
        .where("id", "=", job.name)
        .executeTakeFirst();
      const at = next?.status === "pending" ? Number(next.due_at) : Number(next?.locked_until ?? 0);
      wait = Math.min(job.everyMs, Math.max(MIN_POLL_MS, at - Date.now()));
    } catch (err) {
      log.error("job claim failed", { job: job.name, error: message(err) });
      wait = Math.min(job.everyMs, RETRY_BASE_MS);
    }
    await sleep(job.name, loop, wait);
  }
}

/**
 * Run a claimed recurring job, renewing its lease while it runs, then reschedule it: `everyMs` after it
 * finished, or after a failure with backoff. Every write is guarded by the lease this process holds
 * (`locked_until` as it set it), so a process that lost its claim changes nothing.
 */
async function runOnce(job: RecurringJob, claimedUntil: number, attempts: number, count: JobCounters) {
  let held = claimedUntil;
  /** The renewal under way, if any: the outcome is written after it, under the lease it left. */
  let renewing: Promise<void> = Promise.resolve();
  const renew = setInterval(
    () => {
      renewing = renewing.then(async () => {
        const until = Date.now() + lease(job);
        try {
          const renewed = await db()
            .updateTable("jobs")
            .set({ locked_until: until })
            .where("id", "=", job.name)
            .where("status", "=", "running")
            .where("locked_until", "=", held)
            .executeTakeFirst();
          if (Number(renewed.numUpdatedRows) === 1) held = until;
          else log.warn("job lease lost while running", { job: job.name });
        } catch (err) {
          log.error("job lease not renewed", { job: job.name, error: message(err) });
        }
      });
    },
    Math.max(50, Math.floor(lease(job) / 3)),
  );
  renew.unref?.();
  const started = Date.now();
  count.running++;
  let error: string | null = null;
  try {
    await job.run();
  } catch (err) {
    error = message(err);
  } finally {
    clearInterval(renew);
    await renewing;
    count.running--;
  }
  const now = Date.now();
  const failures = error === null ? 0 : attempts + 1;
  const dueAt =
    error === null
      ? now + job.everyMs
      : now + backoffMs(failures, Math.min(RETRY_BASE_MS, job.everyMs), job.everyMs);
  const saved = await db()
    .updateTable("jobs")
    .set({
      status: "pending",
      due_at: dueAt,
      locked_until: null,
      attempts: failures,
      error: error?.slice(0, 500) ?? null,
      ...(error === null ? { finished_at: now } : {}),
    })
    .where("id", "=", job.name)
    .where("status", "=", "running")
    .where("locked_until", "=", held)
    .executeTakeFirst();
  if (error === null) {
    count.finished++;
    log.debug("job finished", { job: job.name, ms: now - started });
  } else {
    count.failed++;
    log.error("job run failed", { job: job.name, attempt: failures, retryInMs: dueAt - now, error });
  }
  if (Number(saved.numUpdatedRows) !== 1)
    log.warn("job lease lost while running; outcome not recorded", { job: job.name });
}

/**
 * Run `work` at `at` (unix ms) in this process, under the runner's shutdown: a timer not yet fired when the
 * process stops is dropped (the work must also be found by a recurring job), a run under way is waited for.
 */
export function later(name: string, at: number, work: () => Promise<unknown>): void {
  if (state.stopped) return;
  const timer = setTimeout(
    () => {
      state.timers.delete(timer);
      const count = counters(name);
      count.running++;
      const running: Promise<void> = work()
        .then(
          () => {
            count.finished++;
          },
          (err) => {
            count.failed++;
            log.error("job run failed", { job: name, error: message(err) });
          },
        )
        .finally(() => {
          count.running--;
          state.later.delete(running);
        });
      state.later.add(running);
    },
    Math.max(0, at - Date.now()),
  );
  timer.unref?.();
  state.timers.add(timer);
}

/**
 * Stop every job in this process: nothing more is claimed, timers of `later` are dropped, and the promise
 * settles once the runs under way have finished and been recorded, or after `graceMs`, whichever is first
 * (what is still running then keeps its claim until its lease runs out, and another process takes it).
 */
export async function stopJobs(graceMs: number): Promise<void> {
  state.stopped = true;
  for (const timer of state.timers) clearTimeout(timer);
  state.timers.clear();
  const loops = [...state.loops];
  for (const [, loop] of loops) {
    loop.stop = true;
    loop.wake();
  }
  const all = Promise.allSettled([...loops.map(([, loop]) => loop.done), ...state.later]);
  let bound: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    all.then(() => "stopped" as const),
    new Promise<"timeout">((resolve) => {
      bound = setTimeout(() => resolve("timeout"), graceMs);
    }),
  ]);
  clearTimeout(bound);
  if (outcome === "stopped") {
    log.info("jobs stopped", { jobs: jobMetrics(), pid: process.pid });
    return;
  }
  const running = Object.entries(jobMetrics())
    .filter(([, c]) => c.running > 0)
    .map(([name]) => name);
  log.warn("jobs still running after the shutdown bound; their leases will expire", {
    graceMs,
    running,
    jobs: jobMetrics(),
  });
}
