import type { CheckoutMessages } from "@/lib/i18n/messages/en";

/** A problem shown above the card form: a decline, or a charge that did not complete. */
export type CardProblem = { title: string; message: string; at?: number };

/** What a declined card means to the customer, by the API's `reason`, in the page's language. */
export function declineOf(
  result: { reason?: string; message?: string },
  t: CheckoutMessages,
  locale: string,
): CardProblem {
  const c = t.card;
  const known = result.reason && c.decline[result.reason as keyof typeof c.decline];
  // An unknown reason: the API's own words in English, the generic decline in other languages.
  const why = known || (locale === "en" && result.message) || c.decline.other;
  return { title: c.declinedTitle, message: `${why} ${c.nothingCharged}` };
}
