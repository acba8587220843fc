import type { Metadata } from "next";
import { NoticePage } from "@/components/ui/notice-page";
import { buttonPrimary, buttonSecondary } from "@/components/ui/styles";
import { sandboxBankPage } from "@/lib/checkout/sandbox-bank-page";
import { answerBankPage } from "./actions";

export const metadata: Metadata = { title: "Paygate Sandbox Bank · 3-D Secure", robots: { index: false } };

/**
 * The sandbox bank's 3-D Secure page (test card 4000 0000 0000 3063, docs/testing.md): where a real card's
 * bank asks its customer to confirm, the sandbox asks the tester to approve or decline. Its forms post
 * without JavaScript; the answer goes back to the checkout, which shows the outcome.
 */
export default async function SandboxBankPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = await searchParams;
  const attemptId = typeof query.attempt === "string" ? query.attempt : "";
  const authorization = typeof query.authorization === "string" ? query.authorization : "";
  const page = await sandboxBankPage({ attemptId, authorization });
  if (!page) {
    return (
      <NoticePage code="Sandbox bank" title="Nothing to confirm here">
        <p>This confirmation was answered already, or its payment has moved on.</p>
        <p>Go back to the checkout: it shows where the payment stands.</p>
      </NoticePage>
    );
  }
  const answer = (decision: "approve" | "decline", label: string, className: string) => (
    <form action={answerBankPage}>
      <input type="hidden" name="attempt" value={attemptId} />
      <input type="hidden" name="authorization" value={authorization} />
      <input type="hidden" name="decision" value={decision} />
      <button type="submit" className={className}>
        {label}
      </button>
    </form>
  );
  return (
    <NoticePage
      code="Sandbox bank · 3-D Secure"
      title="Confirm this test payment"
      actions={
        <>
          {answer("approve", "Approve", buttonPrimary)}
          {answer("decline", "Decline", buttonSecondary)}
        </>
      }
    >
      <p>
        <strong className="font-semibold text-slate-900">{page.merchant}</strong> asks to charge{" "}
        <strong className="font-semibold text-slate-900 tabular-nums">
          {page.currency} {page.amount}
        </strong>{" "}
        to {page.card}.
      </p>
      <p>
        In test mode this page stands for the card's bank. No money moves: Approve completes the payment,
        Decline refuses it.
      </p>
    </NoticePage>
  );
}
