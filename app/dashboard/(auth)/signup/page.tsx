import type { Metadata } from "next";
import { pageTitle } from "../../_components/styles";
import { SignupForm } from "./signup-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign up" };

export default function SignupPage() {
  return (
    <>
      <h1 className={pageTitle}>Sign up</h1>
      <p className="mt-2 text-sm text-slate-600">
        Create a Paygate account: you get a test key to try everything, and a live key for real payments.
      </p>
      <SignupForm />
    </>
  );
}
