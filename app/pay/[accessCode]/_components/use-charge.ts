"use client";

import { type UseMutationOptions, useMutation } from "@tanstack/react-query";
import { useRef } from "react";
import { ApiError, newIdempotencyKey } from "./api";

/**
 * A mutation for one charge attempt with its own `Idempotency-Key`. The key is made when the attempt starts
 * and kept only while no answer came back (a network failure, a 409 idempotency_in_progress): sending the
 * same request again then replays the first answer instead of charging twice. Any answer ends the attempt,
 * and the next submit is a new attempt with a new key. Callers also disable the button while pending.
 */
export function useCharge<TVars, TData>(
  run: (vars: TVars, key: { idempotencyKey: string }) => Promise<TData>,
  options: Omit<UseMutationOptions<TData, ApiError, TVars>, "mutationFn"> = {},
) {
  const open = useRef<{ key: string; fingerprint: string } | null>(null);
  // Set synchronously on the first click: a second click in the same frame (before React re-renders the
  // button disabled) starts nothing.
  const busy = useRef(false);
  const mutation = useMutation<TData, ApiError, TVars>({
    ...options,
    mutationFn: async (vars) => {
      const fingerprint = JSON.stringify(vars ?? null);
      if (!open.current || open.current.fingerprint !== fingerprint) {
        open.current = { key: newIdempotencyKey(), fingerprint };
      }
      try {
        const data = await run(vars, { idempotencyKey: open.current.key });
        open.current = null;
        return data;
      } catch (err) {
        const unanswered =
          err instanceof ApiError && (err.code === "network_error" || err.code === "idempotency_in_progress");
        if (!unanswered) open.current = null;
        throw err instanceof ApiError ? err : new ApiError("network_error", String(err), 0);
      } finally {
        busy.current = false;
      }
    },
  });
  return {
    ...mutation,
    mutate: (vars: TVars) => {
      if (busy.current) return;
      busy.current = true;
      mutation.mutate(vars);
    },
  };
}
