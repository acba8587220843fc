import type { ReactNode } from "react";

export type FieldAria = { id: string; "aria-invalid": boolean; "aria-describedby"?: string };

/** A labelled control with an optional hint and an inline error, wired for screen readers. */
export function Field({
  id,
  label,
  hint,
  error,
  aside,
  optional,
  optionalLabel = "(optional)",
  className,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  /** Shown at the end of the label row (e.g. the detected card brand). */
  aside?: ReactNode;
  /** Marks the label "(optional)". */
  optional?: boolean;
  /** The "(optional)" mark in the page's language. */
  optionalLabel?: string;
  className?: string;
  children: (aria: FieldAria) => ReactNode;
}) {
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          {label}
          {optional && <span className="font-normal text-slate-600"> {optionalLabel}</span>}
        </label>
        {aside}
      </div>
      {children({ id, "aria-invalid": Boolean(error), "aria-describedby": described })}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
