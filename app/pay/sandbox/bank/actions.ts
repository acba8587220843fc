"use server";

import { redirect } from "next/navigation";
import { answerSandboxBank } from "@/lib/checkout/sandbox-bank-page";

/**
 * Approve or Decline on the sandbox bank's page: the network decides, and the customer goes back to the
 * checkout (303 See Other). An answer to nothing waiting goes back to this page, which says so.
 */
export async function answerBankPage(form: FormData): Promise<void> {
  const attemptId = String(form.get("attempt") ?? "");
  const authorization = String(form.get("authorization") ?? "");
  const decision = form.get("decision") === "approve" ? "approve" : "decline";
  const back = await answerSandboxBank({ attemptId, authorization, decision });
  redirect(back ?? `/pay/sandbox/bank?${new URLSearchParams({ attempt: attemptId, authorization })}`);
}
