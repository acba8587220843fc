import type { Locale } from "./locales";
import { en, type Messages } from "./messages/en";
import { fr } from "./messages/fr";
import { ha } from "./messages/ha";
import { ig } from "./messages/ig";
import { pcm } from "./messages/pcm";
import { yo } from "./messages/yo";

/**
 * Every catalogue, for server components. A client component never imports this file: it gets the slice
 * it needs, in the page's language only, as props (the checkout's `checkout` slice, the link form's `form`).
 */
const CATALOGUES: Record<Locale, Messages> = { en, fr, yo, ha, ig, pcm };

export function messagesFor(locale: Locale): Messages {
  return CATALOGUES[locale];
}
