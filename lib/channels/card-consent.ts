import type { SaveCardMode } from "@/lib/payments/schemas";

/**
 * A customer's consent to keep the card of a card attempt, recorded with the attempt when the card was sent
 * (the words shown, their language, when, from which client address) and the card's fingerprint: what the
 * card is saved with once the network has taken the payment (keep-consented-card.ts).
 */
export type CardConsent = {
  kind: SaveCardMode;
  text: string;
  locale: string;
  clientAddress: string;
  givenAt: number;
  fingerprint: string;
};
