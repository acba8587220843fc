import { BANKS, countryForCurrency } from "@/lib/banks/banks";

/*
 * The payment channels there are, how a list of them is stored (a JSON array, in canonical order), and which
 * of them can take a currency. What each channel does with a transaction is in lib/channels/.
 */

/** The payment channels (docs/api.md), in the order checkout shows them. */
export const CHANNELS = ["card", "bank_transfer", "bank_payment", "ussd"] as const;
export type Channel = (typeof CHANNELS)[number];

export function isChannel(value: string): value is Channel {
  return (CHANNELS as readonly string[]).includes(value);
}

/** Channels stored as a JSON array, filtered to known values in canonical order. */
export function parseChannels(json: string): Channel[] {
  const raw = JSON.parse(json) as unknown;
  const list = Array.isArray(raw)
    ? raw.filter((c): c is Channel => typeof c === "string" && isChannel(c))
    : [];
  return CHANNELS.filter((c) => list.includes(c));
}

export function serializeChannels(channels: readonly Channel[]): string {
  return JSON.stringify(CHANNELS.filter((c) => channels.includes(c)));
}

/** The countries with at least one bank offering USSD (worked out once: initialize asks on every request). */
const USSD_COUNTRIES = new Set(
  Object.entries(BANKS)
    .filter(([, banks]) => banks.some((b) => b.ussd !== undefined))
    .map(([country]) => country),
);

/**
 * Whether a channel can take a payment in `currency`. USSD needs a bank of the currency's country with a
 * USSD service, and only Nigerian banks have one here: a GHS or KES payment never offers USSD.
 */
export function channelServes(channel: Channel, currency: string): boolean {
  return channel !== "ussd" || USSD_COUNTRIES.has(countryForCurrency(currency));
}
