import { processState } from "@/lib/process-state";

/** In-process wake-up for the relay, so a delivery need not wait for the next poll. */
export const relaySignal = processState("webhooks.relaySignal", () => ({ wake: (): void => {} }));
