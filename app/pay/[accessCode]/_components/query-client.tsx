"use client";

import { MutationObserver, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";

function makeClient(): QueryClient {
  return new QueryClient({ defaultOptions: { mutations: { retry: false }, queries: { retry: 1 } } });
}

let browserClient: QueryClient | undefined;

/**
 * The checkout's TanStack Query client. In the browser there is one per page: the status poll
 * (status-poll.tsx), the bank list's query and every charge (use-charge.ts) share it. On the server each call
 * makes a new one, so nothing a render caches is shared between customers.
 *
 * This module, and TanStack Query with it, is loaded with the first thing that needs it (a charge, the bank
 * payment panel's bank list, the status poll), never with the checkout's first screen (docs/checkout.md).
 */
export function checkoutQueryClient(): QueryClient {
  if (typeof window === "undefined") return makeClient();
  browserClient ??= makeClient();
  return browserClient;
}

/** One mutation on the checkout's client (use-charge.ts): its answer, or its error. */
export function runMutation<T>(fn: () => Promise<T>): Promise<T> {
  return new MutationObserver<T, unknown, void>(checkoutQueryClient(), { mutationFn: fn }).mutate();
}

/** The checkout's client for the TanStack Query hooks of what it wraps. */
export function WithQuery({ children }: { children: ReactNode }) {
  const [client] = useState(checkoutQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
