"use client";

import { Field } from "@/components/ui/field";
import { inputClass } from "@/components/ui/styles";

/**
 * What a payment link's create and edit forms share: its title and description, where customers go after
 * paying, when it expires and how many payments it takes. One set of controls, one conversion to the API's
 * body (CreateLinkBody and UpdateLinkBody name these fields alike).
 */
export type LinkDetails = {
  title: string;
  description: string;
  redirectUrl: string;
  /** The value of a datetime-local input, in the browser's time zone ("" for none). */
  expiresAt: string;
  /** Digits only ("" for no limit). */
  usageLimit: string;
};

export const LINK_DETAIL_FIELDS = ["title", "description", "redirectUrl", "expiresAt", "usageLimit"] as const;

/** "2026-11-24T14:05:00.000Z" → the value of a datetime-local input, in the browser's time zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The details as the API's fields: empty optional text is null, the expiry an ISO time, the limit a number. */
export function detailsBody(d: LinkDetails) {
  return {
    title: d.title,
    description: d.description.trim() ? d.description : null,
    redirectUrl: d.redirectUrl.trim() ? d.redirectUrl.trim() : null,
    expiresAt: d.expiresAt ? new Date(d.expiresAt).toISOString() : null,
    usageLimit: d.usageLimit ? Number(d.usageLimit) : null,
  };
}

type Props = {
  id: string;
  value: LinkDetails;
  onChange: (change: Partial<LinkDetails>) => void;
  errors: Partial<Record<(typeof LINK_DETAIL_FIELDS)[number], string>>;
};

/** Title and description: what the customer pays for. */
export function LinkTitleFields({ id, value, onChange, errors }: Props) {
  return (
    <>
      <Field id={`${id}-title`} label="Title" error={errors.title} hint="What the customer pays for.">
        {(aria) => (
          <input
            {...aria}
            required
            value={value.title}
            onChange={(e) => onChange({ title: e.target.value })}
            className={inputClass}
          />
        )}
      </Field>
      <Field id={`${id}-description`} label="Description" optional error={errors.description}>
        {(aria) => (
          <textarea
            {...aria}
            rows={2}
            value={value.description}
            onChange={(e) => onChange({ description: e.target.value })}
            className={inputClass}
          />
        )}
      </Field>
    </>
  );
}

/** Where customers go after paying, the expiry and the most payments the link takes. */
export function LinkLimitFields({ id, value, onChange, errors }: Props) {
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <Field
        id={`${id}-redirect`}
        label="Send customers to, after paying"
        optional
        error={errors.redirectUrl}
      >
        {(aria) => (
          <input
            {...aria}
            type="url"
            value={value.redirectUrl}
            onChange={(e) => onChange({ redirectUrl: e.target.value })}
            className={inputClass}
          />
        )}
      </Field>
      <Field id={`${id}-expires`} label="Expires" optional error={errors.expiresAt}>
        {(aria) => (
          <input
            {...aria}
            type="datetime-local"
            value={value.expiresAt}
            onChange={(e) => onChange({ expiresAt: e.target.value })}
            className={inputClass}
          />
        )}
      </Field>
      <Field id={`${id}-limit`} label="Most payments" optional error={errors.usageLimit}>
        {(aria) => (
          <input
            {...aria}
            inputMode="numeric"
            value={value.usageLimit}
            onChange={(e) => onChange({ usageLimit: e.target.value.replace(/\D/g, "") })}
            className={inputClass}
          />
        )}
      </Field>
    </div>
  );
}
