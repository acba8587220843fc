import { LOCALE_NAMES, LOCALES, type Locale } from "@/lib/i18n/locales";
import { DismissibleDetails } from "./dismissible-details";

const item =
  "block w-full rounded-md px-3 py-1.5 text-left text-sm text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 aria-[current=true]:font-semibold";

/**
 * The hosted pages' language menu: a disclosure ("Language: English") opening one button or link per
 * language, each named in itself and marked with its `lang`. A server component around a native <details>
 * (DismissibleDetails closes it after a pick, on a tap outside and on Escape), and no <select>: the page's own
 * option lists (the bank picker) stay the only ones.
 * With `action` (the checkout's server action) a button posts the pick, which is kept on the payment and
 * re-renders the page in place (the tab and the account shown stay); without, a link to `?lang=` (`keep` is
 * the rest of the query the page needs).
 */
export function LanguageMenu({
  locale,
  label,
  action,
  keep = {},
  up = false,
}: {
  locale: Locale;
  label: string;
  /** Opens upwards (a menu at the foot of the page). */
  up?: boolean;
  action?: (form: FormData) => Promise<void>;
  keep?: Record<string, string>;
}) {
  const choices = LOCALES.map((code) => {
    const current = code === locale;
    return (
      <li key={code}>
        {action ? (
          <button type="submit" name="lang" value={code} lang={code} aria-current={current} className={item}>
            {LOCALE_NAMES[code]}
          </button>
        ) : (
          <a
            href={`?${new URLSearchParams({ ...keep, lang: code })}`}
            lang={code}
            aria-current={current}
            className={item}
          >
            {LOCALE_NAMES[code]}
          </a>
        )}
      </li>
    );
  });
  const list = <ul className="space-y-0.5">{choices}</ul>;
  return (
    <DismissibleDetails className="relative ml-auto w-fit text-sm" testId="language-menu">
      <summary className="cursor-pointer rounded-md px-2 py-1 text-slate-700 ring-1 ring-slate-300 hover:bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900">
        {label}: <span lang={locale}>{LOCALE_NAMES[locale]}</span>
      </summary>
      <div
        className={`absolute right-0 z-20 w-48 rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-200 ${up ? "bottom-full mb-1" : "mt-1"}`}
      >
        {action ? (
          <form action={action}>
            {Object.entries(keep).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            {list}
          </form>
        ) : (
          list
        )}
      </div>
    </DismissibleDetails>
  );
}
