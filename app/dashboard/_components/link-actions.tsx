"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { alertError, buttonSecondary } from "@/components/ui/styles";
import { consoleCall, messageOf } from "./api";

/** Deactivate a link (customers can no longer start a payment on it) or activate it again. */
export function LinkActions({ slug, active }: { slug: string; active: boolean }) {
  const router = useRouter();
  const toggle = useMutation({
    mutationFn: () => consoleCall("PATCH", `payment-links/${slug}`, { active: !active }),
    onSuccess: () => router.refresh(),
  });
  return (
    <div className="space-y-2">
      <button
        type="button"
        className={buttonSecondary}
        disabled={toggle.isPending}
        onClick={() => toggle.mutate()}
      >
        {active ? "Deactivate link" : "Activate link"}
      </button>
      {toggle.isError && (
        <p role="alert" className={alertError}>
          {messageOf(toggle.error)}
        </p>
      )}
    </div>
  );
}
