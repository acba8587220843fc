import type { Metadata } from "next";
import Link from "next/link";
import { linkClass, pageTitle } from "../../_components/styles";
import { ForgotForm } from "./forgot-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Forgot your password" };

export default function ForgotPasswordPage() {
  return (
    <>
      <h1 className={pageTitle}>Forgot your password</h1>
      <p className="mt-2 text-sm text-slate-600">We email a link to choose a new one.</p>
      <ForgotForm />
      <p className="mt-6 text-sm text-slate-700">
        <Link href="/dashboard/login" className={linkClass}>
          Back to sign in
        </Link>
      </p>
    </>
  );
}
