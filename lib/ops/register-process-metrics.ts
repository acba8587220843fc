import client from "prom-client";
import { metrics } from "@/lib/core/metrics";
import { database } from "@/lib/db/client";
import { jobMetrics } from "@/lib/jobs/runner";
import { processState } from "@/lib/process-state";

const COUNTERS = [
  ["claimed", "paygate_jobs_claimed_total", "Rows (or runs) of a background job this process claimed."],
  ["finished", "paygate_jobs_finished_total", "Claimed rows (or runs) of a background job that finished."],
  ["failed", "paygate_jobs_failed_total", "Claimed rows (or runs) of a background job whose run failed."],
  [
    "takenOver",
    "paygate_jobs_taken_over_total",
    "Claims of a background job taken over from a process whose lease ran out.",
  ],
] as const;

/**
 * The metrics of this process that other modules count for themselves (lib/jobs' counters, node-postgres' pool),
 * read from them when scraped, beside those of lib/core/metrics.ts. Called once a process has started (lib/boot.ts,
 * scripts/worker.ts); once per process whatever the number of calls.
 */
export function registerProcessMetrics(): void {
  processState("metrics.process", () => {
    const { register } = metrics();
    for (const [field, name, help] of COUNTERS) {
      new client.Counter({
        name,
        help,
        labelNames: ["job"],
        registers: [register],
        collect() {
          // The runner's counters only ever grow: the counter shows their values as they are.
          this.reset();
          for (const [job, counts] of Object.entries(jobMetrics())) this.inc({ job }, counts[field]);
        },
      });
    }
    new client.Gauge({
      name: "paygate_jobs_running",
      help: "Claimed rows (or runs) of a background job running in this process now.",
      labelNames: ["job"],
      registers: [register],
      collect() {
        this.reset();
        for (const [job, counts] of Object.entries(jobMetrics())) this.set({ job }, counts.running);
      },
    });
    new client.Gauge({
      name: "paygate_db_pool_connections",
      help: "PostgreSQL only: this process's pool of database connections, by state (total, idle, waiting: queries queued for a connection).",
      labelNames: ["state"],
      registers: [register],
      collect() {
        const pool = database().pool;
        if (!pool) return;
        this.set({ state: "total" }, pool.totalCount);
        this.set({ state: "idle" }, pool.idleCount);
        this.set({ state: "waiting" }, pool.waitingCount);
      },
    });
    return true;
  });
}
