import { wakeJob } from "@/lib/jobs/runner";

/** The webhook relay's name on the job runner (lib/jobs/runner.ts). */
export const WEBHOOK_RELAY_JOB = "webhook-relay";

/** In-process wake-up for the relay, so a delivery need not wait for the next poll. */
export const relaySignal = { wake: (): void => wakeJob(WEBHOOK_RELAY_JOB) };
