import { LOCALE_NAMES, LOCALES, type Locale } from "@/lib/i18n/locales";

/**
 * The hosted pages' language menu: a select and a "Change" button (a new language is a new page, so it waits
 * for the button rather than following the select: WCAG 3.2.2). A server component, no JavaScript of its own:
 * `action` is the checkout's server action (the language is kept on the payment, and the page re-renders in
 * place, keeping the tab and the account shown), or, without one, a GET to this address with `?lang=`
 * (`keep` carries the query the page needs). Each language is named in itself, marked with its `lang`.
 */
export function LanguageMenu({
  locale,
  label,
  change,
  action,
  keep = {},
}: {
  locale: Locale;
  label: string;
  change: string;
  action?: (form: FormData) => Promise<void>;
  keep?: Record<string, string>;
}) {
  const fields = Object.entries(keep).map(([name, value]) => (
    <input key={name} type="hidden" name={name} value={value} />
  ));
  const body = (
    <>
      {fields}
      <label htmlFor="language-menu" className="text-slate-700">
        {label}
      </label>
      <select
        id="language-menu"
        name="lang"
        defaultValue={locale}
        className="rounded-md border border-slate-300 bg-white py-1 pr-7 pl-2 text-sm text-slate-900"
      >
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LOCALE_NAMES[code]}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="rounded-md bg-white px-2.5 py-1 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      >
        {change}
      </button>
    </>
  );
  const className = "flex flex-wrap items-center justify-end gap-2 text-sm";
  return action ? (
    <form action={action} className={className} data-testid="language-menu">
      {body}
    </form>
  ) : (
    <form method="get" className={className} data-testid="language-menu">
      {body}
    </form>
  );
}
