import type { ReactNode } from "react";
import { requireMerchant } from "@/lib/console/session";
import { deploymentMode } from "@/lib/env";
import { getSettings } from "@/lib/merchants/get-settings";
import { listMemberships } from "@/lib/merchants/memberships";
import { CONSOLE_PAGES } from "../_components/console-pages";
import { MerchantSwitcher } from "../_components/merchant-switcher";
import { ModeSwitch } from "../_components/mode-switch";
import { ConsoleNav } from "../_components/nav";
import { SignOutButton } from "../_components/sign-out";
import { linkClass } from "../_components/styles";

export const dynamic = "force-dynamic";

/**
 * The signed-in console: a header with the business, the Test / Live switch and sign out, the navigation
 * landmark, a band on every page that says which data is shown, and a footer linking the API reference. Each page checks the session itself too
 * (a layout is not re-run on every navigation).
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const member = await requireMerchant();
  const { merchantId, mode } = member;
  const settings = await getSettings({ merchantId });
  const merchants = await listMemberships({ userId: member.principal.userId });
  const allowed = CONSOLE_PAGES.filter((p) => member.can(p.permission)).map((p) => p.href);
  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-semibold"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        {mode === "test" ? (
          <div
            className="bg-amber-100 px-4 py-1.5 text-center text-sm font-semibold text-amber-950"
            data-mode-band="test"
          >
            Test mode: test data only, no real money moves.
          </div>
        ) : (
          <div
            className="bg-slate-900 px-4 py-1.5 text-center text-sm font-semibold text-white"
            data-mode-band="live"
          >
            Live mode: real payments
            {deploymentMode() === "test" && " (this staging deployment handles test data only)"}
          </div>
        )}
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="min-w-0">
            <p className="text-sm font-bold text-teal-800">Paygate</p>
            <p className="truncate text-sm text-slate-700">
              {settings.businessName}{" "}
              <span className="text-slate-600" data-role={member.principal.role}>
                ({member.principal.email}, {member.principal.role})
              </span>
            </p>
          </div>
          <div className="flex items-center gap-3">
            {merchants.length > 1 && <MerchantSwitcher merchants={merchants} current={merchantId} />}
            <ModeSwitch mode={mode} />
            <SignOutButton />
          </div>
        </div>
        <ConsoleNav allowed={allowed} />
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl space-y-6 px-4 py-6 sm:py-8">
        {children}
      </main>
      <footer className="mx-auto w-full max-w-6xl border-t border-slate-200 px-4 py-4 text-sm text-slate-700">
        {/* A full page load: the reference is its own page, outside the console's layout. */}
        <a href="/docs" className={linkClass}>
          API reference
        </a>
      </footer>
    </div>
  );
}
