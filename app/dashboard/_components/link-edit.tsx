"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Field } from "@/components/ui/field";
import { alertError, inputClass } from "@/components/ui/styles";
import { consoleCall, fieldErrors } from "./api";
import { buttonSmall } from "./styles";

type Editable = {
  slug: string;
  title: string;
  description: string | null;
  redirectUrl: string | null;
  expiresAt: string | null;
  usageLimit: number | null;
};

const FIELDS = ["title", "description", "redirectUrl", "expiresAt", "usageLimit"] as const;

/** "2026-11-24T14:05:00.000Z" → the value of a datetime-local input, in the browser's time zone. */
function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Change what a link may change after it is made (PATCH, the API's UpdateLinkBody): amounts and channels stay. */
export function LinkEdit({ link }: { link: Editable }) {
  const id = useId();
  const router = useRouter();
  const [title, setTitle] = useState(link.title);
  const [description, setDescription] = useState(link.description ?? "");
  const [redirectUrl, setRedirectUrl] = useState(link.redirectUrl ?? "");
  const [expiresAt, setExpiresAt] = useState(() => toLocalInput(link.expiresAt));
  const [usageLimit, setUsageLimit] = useState(link.usageLimit === null ? "" : String(link.usageLimit));
  const save = useMutation({
    mutationFn: () =>
      consoleCall("PATCH", `payment-links/${link.slug}`, {
        title,
        description: description.trim() ? description : null,
        redirectUrl: redirectUrl.trim() ? redirectUrl.trim() : null,
        expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
        usageLimit: usageLimit ? Number(usageLimit) : null,
      }),
    onSuccess: () => router.refresh(),
  });
  const { byField, rest } = fieldErrors(save.error, FIELDS);
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Field id={`${id}-title`} label="Title" error={byField.title}>
        {(aria) => (
          <input {...aria} value={title} onChange={(e) => setTitle(e.target.value)} className={inputClass} />
        )}
      </Field>
      <Field id={`${id}-description`} label="Description" optional error={byField.description}>
        {(aria) => (
          <textarea
            {...aria}
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            className={inputClass}
          />
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          id={`${id}-redirect`}
          label="Send customers to, after paying"
          optional
          error={byField.redirectUrl}
        >
          {(aria) => (
            <input
              {...aria}
              type="url"
              value={redirectUrl}
              onChange={(e) => setRedirectUrl(e.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        <Field id={`${id}-expires`} label="Expires" optional error={byField.expiresAt}>
          {(aria) => (
            <input
              {...aria}
              type="datetime-local"
              value={expiresAt}
              onChange={(e) => setExpiresAt(e.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        <Field id={`${id}-limit`} label="Most payments" optional error={byField.usageLimit}>
          {(aria) => (
            <input
              {...aria}
              inputMode="numeric"
              value={usageLimit}
              onChange={(e) => setUsageLimit(e.target.value.replace(/\D/g, ""))}
              className={inputClass}
            />
          )}
        </Field>
      </div>
      {rest && (
        <p role="alert" className={alertError}>
          {rest}
        </p>
      )}
      <div className="flex items-center gap-3">
        <button type="submit" className={buttonSmall} disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save changes"}
        </button>
        {save.isSuccess && (
          <span role="status" className="text-sm text-emerald-800">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}
