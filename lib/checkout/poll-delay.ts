import type { CheckoutStatus } from "./types";

/**
 * Poll back-off of the hosted checkout: fast right after something happened (a charge, "I've sent the
 * money", a status change), slower the longer nothing does; slower still while nothing is in flight
 * (`pending`). 1.5 s (5 s when pending), doubled for every 30 s without news, at most 15 s. The caller stops
 * polling on a terminal status; TanStack Query pauses it while the tab is hidden and refetches on return.
 */
export function pollDelay(status: CheckoutStatus, quietForMs: number): number {
  const base = status === "pending" ? 5_000 : 1_500;
  return Math.min(base * 2 ** Math.floor(quietForMs / 30_000), 15_000);
}
