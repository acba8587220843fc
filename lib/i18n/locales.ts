/**
 * The languages of the hosted pages (docs/checkout.md "Languages") and how one is chosen. Safe for the browser
 * bundle: no catalogue is imported here.
 */

export const LOCALES = ["en", "fr", "yo", "ha", "ig", "pcm"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** Each language's name in itself, as the language menu lists it. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  fr: "Français",
  yo: "Yorùbá",
  ha: "Hausa",
  ig: "Igbo",
  pcm: "Naijá (Pidgin)",
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * The best of our languages in an `Accept-Language` header ("yo-NG,yo;q=0.9,en;q=0.8" → "yo"), by q-value
 * then order; a language is matched on its primary subtag. Null when none of ours is asked for.
 */
export function fromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .slice(0, 20)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { primary: tag.trim().toLowerCase().split("-")[0] ?? "", q: q ? Number(q) : 1, index };
    })
    .filter((entry) => entry.q > 0 && isLocale(entry.primary))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked[0]?.primary as Locale | undefined) ?? null;
}

/**
 * The page's language: the one kept on the payment (initialize's `locale`, or what the customer picked in the
 * page's menu), then `?lang=`, then the browser's `Accept-Language`, then English.
 */
export function resolveLocale(input: {
  stored?: string | null;
  query?: string | null;
  acceptLanguage?: string | null;
}): Locale {
  if (isLocale(input.stored)) return input.stored;
  if (isLocale(input.query)) return input.query;
  return fromAcceptLanguage(input.acceptLanguage) ?? DEFAULT_LOCALE;
}

/** "{amount} to {merchant}" with `{ amount, merchant }`: a catalogue string with its values put in. */
export function fmt(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}
