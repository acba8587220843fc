/** Class strings of the console (Tailwind), beside the checkout's in components/ui/styles.ts. */
export const card = "rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6";
export const pageTitle = "text-2xl font-bold tracking-tight text-slate-900";
export const sectionTitle = "text-lg font-semibold text-slate-900";
export const tableWrap = "-mx-4 overflow-x-auto sm:mx-0";
export const table = "min-w-full divide-y divide-slate-200 text-left text-sm";
export const th = "whitespace-nowrap px-3 py-2 font-semibold text-slate-700";
export const td = "whitespace-nowrap px-3 py-2 text-slate-800";
export const linkClass =
  "font-semibold text-teal-800 underline underline-offset-2 hover:text-teal-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";
export const buttonSmall =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-teal-700 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-teal-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 disabled:cursor-not-allowed disabled:opacity-60";
export const buttonDanger =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-red-700 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 disabled:cursor-not-allowed disabled:opacity-60";
export const selectClass =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm focus:border-slate-700 focus:outline-none focus:ring-2 focus:ring-slate-700/30";
export const badgeTest = "rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900";
