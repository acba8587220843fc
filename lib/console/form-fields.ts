import type { z } from "zod";
import { formatPath, issueMessage } from "@/lib/core/validation";

/** A posted form's text fields, by name (files and repeated names are not read). */
export function formValues(form: FormData, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => {
      const value = form.get(name);
      return [name, typeof value === "string" ? value : ""];
    }),
  );
}

/**
 * `values` through a request schema: its output, or each failing field's first rule in the API's own words
 * ("password must be at least 10 characters"), keyed by the field, so a form shows it beside that control.
 */
export function parseFields<S extends z.ZodType>(
  schema: S,
  values: Record<string, string>,
): { ok: true; data: z.output<S> } | { ok: false; fieldErrors: Record<string, string> } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = formatPath(issue.path.slice(0, 1)) || "form";
    fieldErrors[field] ??= `${issueMessage(issue, "the form")}.`;
  }
  return { ok: false, fieldErrors };
}
