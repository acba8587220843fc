/** The payment channels of SPEC, in the order checkout shows them. */
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
