"use client";

import { useEffect, useState } from "react";
import { buttonSecondary } from "./styles";

/** Copies `value`; says so in a polite live region. `what` names it: "Copy account number". */
export function CopyButton({
  value,
  what,
  className = "",
}: {
  value: string;
  what: string;
  className?: string;
}) {
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
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <button
        type="button"
        onClick={copy}
        aria-label={`${state === "copied" ? "Copied" : "Copy"} ${what}`}
        className={`${buttonSecondary} px-3 py-1.5`}
      >
        {state === "copied" ? "Copied" : "Copy"}
      </button>
      <span aria-live="polite" className="sr-only">
        {state === "copied"
          ? "Copied to the clipboard."
          : state === "failed"
            ? "Could not copy; select the text instead."
            : ""}
      </span>
    </span>
  );
}
