"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { consoleCall, messageOf } from "./api";

/** Test / Live: which data every page shows. Test is the default. */
export function ModeSwitch({ mode }: { mode: "test" | "live" }) {
  const router = useRouter();
  const change = useMutation({
    mutationFn: (next: "test" | "live") => consoleCall("POST", "mode", { mode: next }),
    onSuccess: () => router.refresh(),
  });
  return (
    <fieldset className="flex items-center gap-2">
      <legend className="sr-only">Data shown</legend>
      <div className="inline-flex rounded-lg bg-slate-100 p-0.5 ring-1 ring-slate-300">
        {(["test", "live"] as const).map((m) => (
          <button
            key={m}
            type="button"
            aria-pressed={mode === m}
            // aria-disabled, not disabled: a disabled button drops the keyboard focus to the page's start.
            aria-disabled={change.isPending || undefined}
            onClick={() => mode !== m && !change.isPending && change.mutate(m)}
            className={`rounded-md px-3 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 ${
              mode === m
                ? m === "test"
                  ? "bg-amber-200 text-amber-950 shadow-sm"
                  : "bg-slate-900 text-white shadow-sm"
                : "text-slate-700"
            }`}
          >
            {m === "test" ? "Test" : "Live"}
          </button>
        ))}
      </div>
      {change.isError && (
        <span role="alert" className="text-sm text-red-700">
          {messageOf(change.error)}
        </span>
      )}
    </fieldset>
  );
}
