import type { Metadata } from "next";
import Link from "next/link";
import { describeReset } from "@/lib/merchants/password-reset";
import { linkClass, pageTitle } from "../../../_components/styles";
import { ResetForm } from "./reset-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };

/** A reset link's page: the form, or why the link no longer works. Its token never leaves in a Referer. */
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const reset = await describeReset(token);
  return (
    <>
      <h1 className={pageTitle}>Choose a new password</h1>
      {reset ? (
        <>
          <p className="mt-2 text-sm text-slate-700">
            For <strong>{reset.email}</strong>. Every session of this account is signed out when it is set.
          </p>
          <ResetForm token={token} email={reset.email} />
        </>
      ) : (
        <p
          role="alert"
          className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-950 ring-1 ring-amber-200"
        >
          This link is unknown, was used already or has expired (links work for 30 minutes).{" "}
          <Link href="/dashboard/forgot-password" className={linkClass}>
            Ask for a new one
          </Link>
          .
        </p>
      )}
    </>
  );
}
