import type { Locale } from "@/lib/i18n/locales";

/** The card charge's body as the card form sends it: the card, and on a payment that saves it, the consent. */
export type CardBody = {
  number: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
  saveCard?: boolean;
  locale?: Locale;
};

/**
 * What the card form adds to the charge on a payment that saves the card: whether the box is ticked
 * (`optional`) and the language its words were shown in (kept with the consent).
 */
export function consentOf(
  form: HTMLFormElement | null,
  saveCard: "optional" | "required" | null,
  locale: Locale,
): Pick<CardBody, "saveCard" | "locale"> {
  if (!saveCard) return {};
  if (saveCard === "required") return { locale };
  const box = form?.elements.namedItem("saveCard");
  return { saveCard: box instanceof HTMLInputElement && box.checked, locale };
}
