"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { CONSOLE_PAGES } from "./console-pages";

/**
 * The console's navigation landmark: every page by its name, the current one marked. The links wrap onto a
 * second line where the screen is narrow (a phone), so every page is in sight, none behind a scroll.
 */
export function ConsoleNav({ allowed }: { allowed: readonly string[] }) {
  const path = usePathname();
  return (
    <nav aria-label="Console" className="mx-auto max-w-6xl px-2">
      <ul className="flex flex-wrap gap-1 pb-2">
        {CONSOLE_PAGES.filter((p) => allowed.includes(p.href)).map((p) => {
          const current = p.href === "/dashboard" ? path === p.href : path.startsWith(p.href);
          return (
            <li key={p.href}>
              <Link
                href={p.href}
                aria-current={current ? "page" : undefined}
                className={`block whitespace-nowrap rounded-lg px-2.5 py-1.5 text-sm font-semibold sm:px-3 sm:py-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 ${
                  current
                    ? "bg-teal-50 text-teal-900 ring-1 ring-teal-200"
                    : "text-slate-700 hover:bg-slate-100"
                }`}
              >
                {p.name}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
