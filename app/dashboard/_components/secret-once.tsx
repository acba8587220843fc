"use client";

import { CopyButton } from "@/components/ui/copy-button";
import { alertWarning } from "@/components/ui/styles";

/** A secret shown this once (a key, a webhook secret), with a copy button and a plain warning. */
export function SecretOnce({ label, value, id }: { label: string; value: string; id: string }) {
  return (
    <div className="space-y-2">
      <p className="text-sm font-medium text-slate-800" id={`${id}-label`}>
        {label}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code
          data-secret={id}
          className="min-w-0 break-all rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm text-slate-900"
        >
          {value}
        </code>
        <CopyButton value={value} what={label} />
      </div>
    </div>
  );
}

export function ShownOnceWarning({ children }: { children: React.ReactNode }) {
  return (
    <p role="note" className={alertWarning}>
      {children}
    </p>
  );
}
