// A process that claims work through lib/jobs, for lib/jobs/runner.test.ts (run with `node --import tsx`):
//   claim <leaseMs>         claims receipts three at a time (2 ms apart) until none is due, then prints the ids
//                           it claimed as one JSON line;
//   hold <name> <leaseMs>   runs a recurring job named <name> whose run never ends (the test kills the process
//                           with SIGKILL while it holds the claim);
//   tick <name> <everyMs> <forMs>  from GO_FILE on, runs a recurring job of 50 ms every <everyMs> for <forMs>,
//                           printing `run <start> <end>` for each run, then stops.
// DATABASE_URL names the database; a line `ready` is printed once the process can start (`claim` then waits for
// the file GO_FILE names).
import { claimDue } from "@/lib/jobs/claim";
import { recurringJob, startJobs, stopJobs } from "@/lib/jobs/runner";

const [mode, ...args] = process.argv.slice(2);

import { existsSync } from "node:fs";

if (mode === "claim") {
  const leaseMs = Number(args[0]);
  // The database opened and the claim's statements prepared before the start.
  await claimDue("receipts", { limit: 3, leaseMs, ids: ["none"] });
  process.stdout.write("ready\n");
  // Both claimants start when the test writes GO_FILE, so their claims overlap.
  while (!existsSync(String(process.env.GO_FILE))) await new Promise((r) => setTimeout(r, 2));
  const claimed: string[] = [];
  for (;;) {
    const { rows } = await claimDue("receipts", { limit: 3, leaseMs });
    if (rows.length === 0) break;
    claimed.push(...rows.map((r) => r.id));
    // The rows' work, as a relay sends between claims (without it, SQLite's busy wait can leave one
    // process the write lock for the whole run).
    await new Promise((r) => setTimeout(r, 2));
  }
  process.stdout.write(`${JSON.stringify(claimed)}\n`);
  process.exit(0);
} else if (mode === "hold") {
  const [name, leaseMs] = args;
  startJobs([
    recurringJob({
      name: String(name),
      title: "held job",
      everyMs: 60_000,
      leaseMs: Number(leaseMs),
      run: async () => {
        process.stdout.write("running\n");
        await new Promise(() => {});
      },
    }),
  ]);
  process.stdout.write("ready\n");
  // Alive until killed (the runner's own timers do not hold a process open).
  setInterval(() => {}, 60_000);
} else if (mode === "tick") {
  const [name, everyMs, forMs] = args.map((a, i) => (i === 0 ? a : Number(a))) as [string, number, number];
  await claimDue("jobs", { limit: 1, leaseMs: 1, claimed: "running", ids: ["none"] });
  process.stdout.write("ready\n");
  while (!existsSync(String(process.env.GO_FILE))) await new Promise((r) => setTimeout(r, 2));
  startJobs([
    recurringJob({
      name,
      title: "tick job",
      everyMs,
      run: async () => {
        const started = Date.now();
        await new Promise((r) => setTimeout(r, 50));
        process.stdout.write(`run ${started} ${Date.now()}\n`);
      },
    }),
  ]);
  await new Promise((r) => setTimeout(r, forMs));
  await stopJobs(5_000);
  process.exit(0);
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
