"use client";

import { alertError, buttonSecondary } from "@/components/ui/styles";

/** A console page that could not load: say so plainly and offer to try again. */
export default function ConsoleError({ reset }: { error: Error; reset: () => void }) {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">Something went wrong</h1>
      <p role="alert" className={alertError}>
        This page could not be loaded. Try again in a moment; if it keeps failing, contact Paygate support.
      </p>
      <button type="button" className={buttonSecondary} onClick={() => reset()}>
        Try again
      </button>
    </div>
  );
}
