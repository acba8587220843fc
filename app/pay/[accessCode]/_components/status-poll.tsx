"use client";

import { useQuery } from "@tanstack/react-query";
import { type RefObject, useEffect } from "react";
import { pollDelay } from "@/lib/checkout/poll-delay";
import { type CheckoutRecord, TERMINAL } from "@/lib/checkout/types";
import { type ApiError, checkoutApi } from "./api";
import { checkoutQueryClient } from "./query-client";

/** When the status last changed or the customer last acted: the poll is fastest right after. */
export type Activity = { status: CheckoutRecord["status"]; at: number };

const statusKey = (accessCode: string) => ["checkout", accessCode];

/**
 * The checkout's status poll, loaded after the first screen (checkout.tsx renders it browser-only): polls
 * `GET /v1/payment/checkout/verify` with the back-off of lib/checkout/poll-delay.ts until the status is final,
 * and hands each answer (and each failure) to the page.
 */
export function StatusPoll({
  accessCode,
  initial,
  activity,
  onRecord,
  onError,
}: {
  accessCode: string;
  /** The record the page shows now: the poll's starting point. */
  initial: CheckoutRecord;
  activity: RefObject<Activity>;
  onRecord: (record: CheckoutRecord) => void;
  onError: (error: ApiError | null) => void;
}) {
  const query = useQuery<CheckoutRecord, ApiError>(
    {
      queryKey: statusKey(accessCode),
      queryFn: () => checkoutApi.verify(accessCode),
      initialData: initial,
      staleTime: 1_000,
      refetchInterval: (q) => {
        const status = q.state.data?.status;
        if (!status || TERMINAL.has(status) || q.state.error?.httpStatus === 401) return false;
        if (status !== activity.current.status) activity.current = { status, at: Date.now() };
        return pollDelay(status, Date.now() - activity.current.at);
      },
    },
    checkoutQueryClient(),
  );
  useEffect(() => onRecord(query.data), [query.data, onRecord]);
  useEffect(() => onError(query.error), [query.error, onError]);
  return null;
}

/**
 * What a charge just answered, applied at once: a poll already in flight is cancelled first, so it cannot
 * overwrite the answer with older news. `current` is the page's record, the base when no poll ran yet.
 */
export async function applyToStatus(
  accessCode: string,
  current: CheckoutRecord,
  patch: Partial<CheckoutRecord>,
): Promise<CheckoutRecord> {
  const client = checkoutQueryClient();
  const queryKey = statusKey(accessCode);
  await client.cancelQueries({ queryKey });
  const next = { ...(client.getQueryData<CheckoutRecord>(queryKey) ?? current), ...patch };
  client.setQueryData<CheckoutRecord>(queryKey, next);
  return next;
}

/** Poll now. */
export function pollNow(accessCode: string): void {
  void checkoutQueryClient().invalidateQueries({ queryKey: statusKey(accessCode) });
}
