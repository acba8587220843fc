"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { alertError, buttonSecondary } from "@/components/ui/styles";
import { consoleCall, messageOf } from "./api";
import { buttonDanger } from "./styles";

/**
 * Stop a customer's saved card for good: asked first (it can never be charged again, and a subscription on it
 * would fail), then POST /dashboard/api/authorizations/{code}/deactivate and the page again.
 */
export function DeactivateCard({ code, label }: { code: string; label: string }) {
  const router = useRouter();
  const [asking, setAsking] = useState(false);
  // The question takes focus when it appears, so a keyboard or screen reader user lands on it.
  const question = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (asking) question.current?.focus();
  }, [asking]);
  const stop = useMutation({
    mutationFn: () => consoleCall("POST", `authorizations/${code}/deactivate`, {}),
    onSuccess: () => {
      setAsking(false);
      router.refresh();
    },
  });
  if (!asking) {
    return (
      <button type="button" className={buttonSecondary} onClick={() => setAsking(true)}>
        Deactivate {label}
      </button>
    );
  }
  return (
    <div className="space-y-2">
      <p ref={question} tabIndex={-1} className="text-sm text-slate-800 focus:outline-none">
        Deactivate {label}? It can never be charged again; the customer would have to save a card again.
      </p>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={buttonDanger}
          disabled={stop.isPending}
          onClick={() => stop.mutate()}
        >
          {stop.isPending ? "Deactivating…" : "Yes, deactivate"}
        </button>
        <button
          type="button"
          className={buttonSecondary}
          disabled={stop.isPending}
          onClick={() => setAsking(false)}
        >
          Keep it
        </button>
      </div>
      {stop.isError && (
        <p role="alert" className={alertError}>
          {messageOf(stop.error)}
        </p>
      )}
    </div>
  );
}
