import type { Metadata } from "next";
import Link from "next/link";
import { describeInvitation } from "@/lib/team/accept-invitation";
import { linkClass, pageTitle } from "../../../_components/styles";
import { InvitationForm } from "./invitation-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Join a team", referrer: "no-referrer" };

/**
 * An invitation's page (the emailed link): whose team, which role, and the form to join. Its token is in
 * the address only; the page sends no Referer, so no other site learns it.
 */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await describeInvitation(token);
  if (!invitation) {
    return (
      <>
        <h1 className={pageTitle}>Join a team</h1>
        <p
          role="alert"
          className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-950 ring-1 ring-amber-200"
        >
          This invitation link is unknown, was used already, was withdrawn or has expired. Ask the team's
          owner for a new one.
        </p>
        <p className="mt-4 text-sm text-slate-700">
          <Link href="/dashboard/login" className={linkClass}>
            Sign in
          </Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1 className={pageTitle}>Join {invitation.businessName}</h1>
      <p className="mt-2 text-sm text-slate-700">
        You are invited as <strong>{invitation.role}</strong>, with the email{" "}
        <strong>{invitation.email}</strong>.
        {invitation.hasAccount
          ? " This email has a Paygate account: type its password to join."
          : " Choose a password for your new Paygate account."}
      </p>
      <InvitationForm token={token} email={invitation.email} hasAccount={invitation.hasAccount} />
    </>
  );
}
