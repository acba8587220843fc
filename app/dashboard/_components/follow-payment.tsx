"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { consoleCall } from "./api";

const TERMINAL = new Set(["success", "failed", "abandoned"]);

/**
 * While a payment is in progress, poll its status and re-render the page when it changes (paid, failed,
 * abandoned, a new channel attempt). Says nothing itself; the page's content is what changes.
 */
export function FollowPayment({ reference, status }: { reference: string; status: string }) {
  const router = useRouter();
  const live = !TERMINAL.has(status);
  const poll = useQuery({
    queryKey: ["payment", reference],
    queryFn: () => consoleCall<{ status: string }>("GET", `payments/${reference}`),
    enabled: live,
    refetchInterval: 3000,
  });
  const current = poll.data?.status;
  useEffect(() => {
    if (current && current !== status) router.refresh();
  }, [current, status, router]);
  return null;
}
