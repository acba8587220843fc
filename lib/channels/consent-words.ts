import { fmt, type Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import type { SaveCardMode } from "@/lib/payments/schemas";

/**
 * The words the checkout shows about keeping the card, in the page's language, with the merchant's name, as
 * the card form renders them (save-card-consent.tsx reads the same catalogue): the box's label and the line
 * under it (`optional`), or the payment's terms (`required`). What a consent records as the words shown.
 */
export function consentWords(kind: SaveCardMode, locale: Locale, merchant: string): string {
  const t = messagesFor(locale).checkout.savedCards;
  return kind === "optional"
    ? `${fmt(t.optional, { merchant })}\n${fmt(t.optionalHint, { merchant })}`
    : fmt(t.required, { merchant });
}
