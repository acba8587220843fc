/** Class strings of the console (Tailwind), beside the checkout's in components/ui/styles.ts. */
export const card = "rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6";
export const pageTitle = "text-2xl font-bold tracking-tight text-slate-900";
export const sectionTitle = "text-lg font-semibold text-slate-900";
/**
 * The console's lists: a table from 640 px, and under it (a phone) each row a card of its own, each cell a
 * line named by its column (the cell's data-label), so nothing needs sideways scrolling. The header row is
 * then read by screen readers only; the table stays a table to them.
 */
export const tableWrap = "sm:overflow-x-auto";
export const table =
  "w-full text-left text-sm max-sm:block sm:min-w-full sm:divide-y sm:divide-slate-200 max-sm:[&_tbody]:block max-sm:[&_tbody]:space-y-3 max-sm:[&_tbody]:divide-y-0 max-sm:[&_tr]:block max-sm:[&_tr]:rounded-lg max-sm:[&_tr]:px-3 max-sm:[&_tr]:py-2 max-sm:[&_tr]:ring-1 max-sm:[&_tr]:ring-slate-200";
export const thead = "max-sm:sr-only";
const stackedCell =
  "max-sm:flex max-sm:flex-wrap max-sm:items-baseline max-sm:justify-between max-sm:gap-x-3 max-sm:px-0 max-sm:py-1 max-sm:whitespace-normal max-sm:[overflow-wrap:anywhere] max-sm:before:font-semibold max-sm:before:text-slate-600 max-sm:before:content-[attr(data-label)]";
export const th = `whitespace-nowrap px-3 py-2 font-semibold text-slate-700 ${stackedCell}`;
export const td = `whitespace-nowrap px-3 py-2 text-slate-800 ${stackedCell}`;
export const linkClass =
  "font-semibold text-teal-800 underline underline-offset-2 hover:text-teal-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";
export const buttonSmall =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-teal-700 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-teal-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 disabled:cursor-not-allowed disabled:opacity-60";
export const buttonDanger =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-red-700 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 disabled:cursor-not-allowed disabled:opacity-60";
export const selectClass =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm focus:border-slate-700 focus:outline-none focus:ring-2 focus:ring-slate-700/30";
export const badgeTest = "rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900";
