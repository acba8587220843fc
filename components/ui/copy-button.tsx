"use client";

import { useEffect, useState } from "react";
import { buttonSecondary } from "./styles";
import { useHydrated } from "./use-hydrated";

const COPY_LABELS = {
  copy: "Copy",
  copied: "Copied",
  copiedLong: "Copied to the clipboard.",
  failed: "Could not copy; select the text instead.",
};

/**
 * Copies `value`; says so in a polite live region. `what` names it: "Copy account number". Only once the
 * page's code runs: before that, or with JavaScript off, a button that does nothing is not shown (the value
 * beside it can be selected and copied by hand).
 */
export function CopyButton({
  value,
  what,
  className = "",
  labels = COPY_LABELS,
}: {
  value: string;
  what: string;
  className?: string;
  /** The button's words, in the page's language. */
  labels?: typeof COPY_LABELS;
}) {
  const hydrated = useHydrated();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 2500);
    return () => clearTimeout(t);
  }, [state]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
  }
  if (!hydrated) return null;
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <button
        type="button"
        onClick={copy}
        aria-label={`${state === "copied" ? labels.copied : labels.copy} ${what}`}
        className={`${buttonSecondary} px-3 py-1.5`}
      >
        {state === "copied" ? labels.copied : labels.copy}
      </button>
      <span aria-live="polite" className="sr-only">
        {state === "copied" ? labels.copiedLong : state === "failed" ? labels.failed : ""}
      </span>
    </span>
  );
}
