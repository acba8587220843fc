import Link from "next/link";
import type { ReactNode } from "react";

/** Sign in and sign up: one narrow card, no console navigation. */
export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-md flex-col px-4 py-8 sm:py-16">
      <header className="mb-6">
        <Link
          href="/"
          className="text-lg font-bold text-teal-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
        >
          Paygate
        </Link>
      </header>
      <main className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8">{children}</main>
    </div>
  );
}
