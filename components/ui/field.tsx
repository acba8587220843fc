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
  errorShownElsewhere,
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
  /**
   * The error's text is shown elsewhere, by the caller, in an element of id `fieldErrorId(id)` (ReservedErrors):
   * the control is still marked invalid and described by it.
   */
  errorShownElsewhere?: boolean;
  children: (aria: FieldAria) => ReactNode;
}) {
  const described = [hint && `${id}-hint`, error && fieldErrorId(id)].filter(Boolean).join(" ") || undefined;
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
      {error && !errorShownElsewhere && (
        <p id={fieldErrorId(id)} className={fieldErrorText}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The id of the element showing the error of the field of id `id`. */
export const fieldErrorId = (id: string) => `${id}-error`;

const fieldErrorText = "mt-1 text-sm font-medium text-red-700";

/**
 * The errors of a group of fields, in one place under them that keeps its height whether an error shows or
 * not: every message the fields can show is laid out in it, unseen (as generated content), so it is as tall as the longest one at the
 * page's width (two lines on a narrow phone), and an error appearing moves nothing below it. Each error keeps
 * its field's id (`fieldErrorId`), which describes the field. Several errors at once may take more room.
 */
export function ReservedErrors({
  messages,
  errors,
}: {
  /** Every message the fields can show, in the page's language. */
  messages: string[];
  /** The errors to show, with the id of the field each belongs to. */
  errors: Array<{ id: string; error: string | null | undefined }>;
}) {
  return (
    <div className={`grid ${fieldErrorText}`}>
      {/* Laid out as generated content, so the page's text (find in page, a copy) has each message once. */}
      {messages.map((message) => (
        <span
          key={message}
          aria-hidden="true"
          data-text={message}
          className="invisible col-start-1 row-start-1 before:content-[attr(data-text)]"
        />
      ))}
      <div className="col-start-1 row-start-1">
        {errors.map(
          ({ id, error }) =>
            error && (
              <p key={id} id={fieldErrorId(id)}>
                {error}
              </p>
            ),
        )}
      </div>
    </div>
  );
}
