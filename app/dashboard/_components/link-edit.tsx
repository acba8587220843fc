"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { alertError } from "@/components/ui/styles";
import { UpdateLinkBody } from "@/lib/links/schemas";
import { checkBody, consoleCall, fieldErrors } from "./api";
import {
  detailsBody,
  LINK_DETAIL_FIELDS,
  type LinkDetails,
  LinkLimitFields,
  LinkTitleFields,
  toLocalInput,
} from "./link-fields";
import { buttonSmall } from "./styles";

type Editable = {
  slug: string;
  title: string;
  description: string | null;
  redirectUrl: string | null;
  expiresAt: string | null;
  usageLimit: number | null;
};

/**
 * Change what a link may change after it is made (PATCH, the API's UpdateLinkBody, checked here with that
 * schema before it is sent): amounts and channels stay.
 */
export function LinkEdit({ link }: { link: Editable }) {
  const id = useId();
  const router = useRouter();
  const [details, setDetails] = useState<LinkDetails>(() => ({
    title: link.title,
    description: link.description ?? "",
    redirectUrl: link.redirectUrl ?? "",
    expiresAt: toLocalInput(link.expiresAt),
    usageLimit: link.usageLimit === null ? "" : String(link.usageLimit),
  }));
  const save = useMutation({
    mutationFn: async () =>
      consoleCall("PATCH", `payment-links/${link.slug}`, checkBody(UpdateLinkBody, detailsBody(details))),
    onSuccess: () => router.refresh(),
  });
  const { byField, rest } = fieldErrors(save.error, LINK_DETAIL_FIELDS);
  const fields = {
    id,
    value: details,
    onChange: (change: Partial<LinkDetails>) => setDetails((d) => ({ ...d, ...change })),
    errors: byField,
  };
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <LinkTitleFields {...fields} />
      <LinkLimitFields {...fields} />
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
