import type { Metadata } from "next";
import Link from "next/link";
import { safeNext } from "@/lib/console/cookies";
import { linkClass, pageTitle } from "../../_components/styles";
import { LoginForm } from "./login-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const next = safeNext(typeof params.next === "string" ? params.next : null);
  const expired = params.expired === "1";
  const reset = params.reset === "1";
  return (
    <>
      <h1 className={pageTitle}>Sign in</h1>
      <p className="mt-2 text-sm text-slate-600">to your Paygate console.</p>
      {expired && (
        <p role="status" className="mt-4 rounded-lg bg-sky-50 p-3 text-sm text-sky-900 ring-1 ring-sky-200">
          Your session has ended. Sign in again to continue where you were.
        </p>
      )}
      {reset && (
        <p
          role="status"
          className="mt-4 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900 ring-1 ring-emerald-200"
        >
          Your password is changed and every session of your account is signed out. Sign in with the new one.
        </p>
      )}
      <LoginForm next={next} />
      <p className="mt-3 text-sm">
        <Link href="/dashboard/forgot-password" className={linkClass}>
          Forgot your password?
        </Link>
      </p>
      <p className="mt-6 text-sm text-slate-600">
        This browser is remembered once you sign in with it. If someone keeps trying wrong passwords on your
        account, it is locked for a while, but not for browsers you have signed in with before: use one of
        those, or wait and try again.
      </p>
      <p className="mt-4 text-sm text-slate-700">
        New to Paygate?{" "}
        <Link href="/dashboard/signup" className={linkClass}>
          Create an account
        </Link>
      </p>
    </>
  );
}
