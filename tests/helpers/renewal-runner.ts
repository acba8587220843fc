// A process that runs the subscription renewal job (lib/subscriptions/renewal-job.ts), for
// tests/subscriptions-in-process.test.ts (run with `node --import tsx`): prints `ready` once its database is
// open, starts the job when the file GO_FILE names appears, and once no invoice is due or being charged any
// more, stops and prints the job's counters in this process as one JSON line. DATABASE_URL names the database.
import { existsSync } from "node:fs";
import { db } from "@/lib/db/client";
import { jobMetrics, startJobs, stopJobs } from "@/lib/jobs/runner";
import { RENEWAL_JOB, renewalJob } from "@/lib/subscriptions/renewal-job";

await db().selectFrom("invoices").select("id").limit(1).execute();
process.stdout.write("ready\n");
while (!existsSync(String(process.env.GO_FILE))) await new Promise((r) => setTimeout(r, 2));
const job = renewalJob();
if (!job) throw new Error("the renewal job is off (CHECKOUT_EXPIRY_SWEEP_SECONDS=0)");
startJobs([job]);
for (;;) {
  await new Promise((r) => setTimeout(r, 100));
  const left = await db()
    .selectFrom("invoices")
    .select("id")
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "pending"), eb("due_at", "<=", Date.now())]),
        eb("status", "=", "charging"),
      ]),
    )
    .limit(1)
    .execute();
  if (left.length === 0) break;
}
await stopJobs(10_000);
process.stdout.write(`${JSON.stringify(jobMetrics()[RENEWAL_JOB])}\n`);
process.exit(0);
