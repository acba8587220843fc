import { formatAmount, parseAmount } from "./amount";
import type { Currency } from "./currencies";

/**
 * `distribution` (docs/api.md: service key -> number, in the unit of `amount`). Values are read from their decimal
 * text: a JSON number is turned back into the shortest decimal string that names it (`String(n)`), then
 * parsed like an amount string, so no float arithmetic happens. Keys match `^[A-Za-z0-9_-]{1,64}$`, values
 * are positive and their sum may not exceed the amount (docs/api.md).
 */
export const DISTRIBUTION_KEY = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_DISTRIBUTION_ENTRIES = 50;

export type DistributionIssue = { path: string[]; message: string };

export function checkDistribution(
  distribution: Record<string, number | string>,
  amountMinor: bigint,
  currency: Currency,
): { ok: true; minor: Record<string, bigint> } | { ok: false; issue: DistributionIssue } {
  const entries = Object.entries(distribution);
  if (entries.length === 0)
    return { ok: false, issue: { path: [], message: "must have at least one entry" } };
  if (entries.length > MAX_DISTRIBUTION_ENTRIES) {
    return {
      ok: false,
      issue: { path: [], message: `must have at most ${MAX_DISTRIBUTION_ENTRIES} entries` },
    };
  }
  // Pairs then Object.fromEntries (define, not assign): a key such as "__proto__" matches DISTRIBUTION_KEY
  // and must come back as an own entry rather than hit the Object.prototype setter and vanish.
  const pairs: [string, bigint][] = [];
  let sum = 0n;
  for (const [key, value] of entries) {
    if (!DISTRIBUTION_KEY.test(key)) {
      return { ok: false, issue: { path: [key], message: "key must match ^[A-Za-z0-9_-]{1,64}$" } };
    }
    const parsed = parseAmount(typeof value === "number" ? String(value) : value, currency);
    if (!parsed.ok)
      return { ok: false, issue: { path: [key], message: `must be a positive amount: ${parsed.reason}` } };
    pairs.push([key, parsed.minor]);
    sum += parsed.minor;
  }
  if (sum > amountMinor) {
    return {
      ok: false,
      issue: {
        path: [],
        message: `must have values that sum to at most amount (${formatAmount(amountMinor, currency)})`,
      },
    };
  }
  return { ok: true, minor: Object.fromEntries(pairs) };
}
