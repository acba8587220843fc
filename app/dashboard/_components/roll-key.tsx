"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { alertError, buttonSecondary } from "@/components/ui/styles";
import { consoleCall, messageOf } from "./api";
import { SecretOnce, ShownOnceWarning } from "./secret-once";
import { buttonDanger } from "./styles";

/** Roll the mode's secret key, after a confirmation; the new key is shown once. */
export function RollKey({ mode }: { mode: "test" | "live" }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const rollRef = useRef<HTMLButtonElement>(null);
  const shownRef = useRef<HTMLDivElement>(null);
  const wasConfirming = useRef(false);
  const roll = useMutation({
    mutationFn: () => consoleCall<{ mode: string; secretKey: string }>("POST", "keys/roll", { mode }),
    onSuccess: () => {
      setConfirming(false);
      router.refresh();
    },
  });
  // The keyboard focus follows what replaces the control it was on: the confirmation, the new key once
  // shown, or the roll button again after Cancel.
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
    else if (wasConfirming.current && !roll.data) rollRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming, roll.data]);
  useEffect(() => {
    if (roll.data) shownRef.current?.focus();
  }, [roll.data]);

  return (
    <div className="space-y-3">
      {roll.data && (
        <div className="space-y-3 focus:outline-none" role="status" tabIndex={-1} ref={shownRef}>
          <ShownOnceWarning>
            Your new {mode} key is below. Copy it now: it will not be shown again. The old key no longer
            works.
          </ShownOnceWarning>
          <SecretOnce id="new-key" label={`New ${mode} secret key`} value={roll.data.secretKey} />
        </div>
      )}
      {roll.isError && (
        <p role="alert" className={alertError}>
          {messageOf(roll.error)}
        </p>
      )}
      {confirming ? (
        <div className="rounded-lg bg-red-50 p-3 ring-1 ring-red-200">
          <p className="text-sm text-red-900">
            Roll the {mode} key? Every server using the current key will be refused until it has the new one.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <button
              ref={confirmRef}
              type="button"
              className={buttonDanger}
              disabled={roll.isPending}
              onClick={() => roll.mutate()}
            >
              {roll.isPending ? "Rolling…" : `Yes, roll the ${mode} key`}
            </button>
            <button type="button" className={buttonSecondary} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <button ref={rollRef} type="button" className={buttonSecondary} onClick={() => setConfirming(true)}>
          Roll {mode} key
        </button>
      )}
    </div>
  );
}
