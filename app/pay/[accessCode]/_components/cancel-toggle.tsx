"use client";

import type { ReactNode, Ref } from "react";
import { buttonLink } from "@/components/ui/styles";

/**
 * A button that opens or closes the question: a GET form to this page with or without `cancel=confirm`, so it
 * answers before the page's code runs (or without it); once the code runs, in place.
 */
export function Toggle({
  query,
  onToggle,
  buttonRef,
  className,
  children,
  disabled,
}: {
  query: Record<string, string>;
  onToggle: () => void;
  buttonRef: Ref<HTMLButtonElement>;
  className: string;
  children: ReactNode;
  disabled?: boolean;
}) {
  return (
    <form
      method="get"
      className="inline"
      onSubmit={(event) => {
        event.preventDefault();
        onToggle();
      }}
    >
      {Object.entries(query).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button ref={buttonRef} type="submit" disabled={disabled} className={className}>
        {children}
      </button>
    </form>
  );
}

/** Where "Cancel payment" sits, under the panel. */
export function CancelBox({ children }: { children: ReactNode }) {
  return <div className="mt-6 border-t border-slate-200 pt-4 text-center">{children}</div>;
}

/**
 * "Cancel payment" before it is pressed: the button alone, with the page. The question and its request
 * (cancel-payment.tsx) are a chunk of their own, fetched once the page is idle; a tap before the page's code
 * runs opens the question through the plain form.
 */
export function CancelButton({
  keep,
  label,
  onOpen,
}: {
  keep: Record<string, string>;
  label: string;
  onOpen: () => void;
}) {
  return (
    <CancelBox>
      <Toggle
        query={{ ...keep, cancel: "confirm" }}
        onToggle={onOpen}
        buttonRef={null}
        className={buttonLink}
      >
        {label}
      </Toggle>
    </CancelBox>
  );
}
