/** Shared class strings of the checkout primitives (Tailwind). The brand colour comes from --brand/--brand-fg. */

export const buttonPrimary =
  "inline-flex w-full items-center justify-center gap-2 rounded-lg bg-[var(--brand,#0f766e)] px-4 py-3 text-base font-semibold text-[var(--brand-fg,#fff)] shadow-sm transition-[color,background-color,filter] hover:brightness-95 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 disabled:cursor-not-allowed disabled:opacity-70";

export const buttonSecondary =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 ring-1 ring-slate-300 transition hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 disabled:cursor-not-allowed disabled:opacity-60";

export const buttonLink =
  "rounded text-sm font-semibold text-slate-700 underline underline-offset-2 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 disabled:opacity-60";

export const inputClass =
  "mt-1 block w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-slate-700 focus:outline-none focus:ring-2 focus:ring-slate-700/30 aria-[invalid=true]:border-red-600";

export const alertError = "rounded-lg bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200";
export const alertWarning = "rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200";
