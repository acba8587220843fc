"use client";

import { useMutation } from "@tanstack/react-query";
import { buttonSecondary } from "@/components/ui/styles";
import { consoleCall } from "./api";

/** Ends the session everywhere and leaves with a full load, so no signed-in page stays in the browser's memory. */
export function SignOutButton() {
  const out = useMutation({
    mutationFn: () => consoleCall("POST", "auth/logout"),
    onSettled: () => window.location.replace("/dashboard/login"),
  });
  return (
    <button
      type="button"
      className={`${buttonSecondary} px-3 py-1.5`}
      disabled={out.isPending}
      onClick={() => out.mutate()}
    >
      Sign out
    </button>
  );
}
