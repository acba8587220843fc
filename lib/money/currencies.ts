/**
 * Currencies we collect, with their ISO 4217 minor digits and the fee schedule's currency-specific parts.
 * Amounts inside the service are integer minor units (bigint); this table is what turns them into strings.
 */
export type CurrencyInfo = {
  code: string;
  /** ISO 4217 minor unit digits. */
  minorDigits: number;
  name: string;
};

export const CURRENCIES = {
  NGN: { code: "NGN", minorDigits: 2, name: "Nigerian naira" },
  USD: { code: "USD", minorDigits: 2, name: "US dollar" },
  GHS: { code: "GHS", minorDigits: 2, name: "Ghanaian cedi" },
  KES: { code: "KES", minorDigits: 2, name: "Kenyan shilling" },
  ZAR: { code: "ZAR", minorDigits: 2, name: "South African rand" },
  XOF: { code: "XOF", minorDigits: 0, name: "West African CFA franc" },
} as const satisfies Record<string, CurrencyInfo>;

export type Currency = keyof typeof CURRENCIES;
export const CURRENCY_CODES = Object.keys(CURRENCIES) as [Currency, ...Currency[]];
export const DEFAULT_CURRENCY: Currency = "NGN";

export function isCurrency(code: string): code is Currency {
  return Object.hasOwn(CURRENCIES, code);
}

/** 10^minorDigits as a bigint: the number of minor units in one major unit. */
export function minorPerMajor(currency: Currency): bigint {
  return 10n ** BigInt(CURRENCIES[currency].minorDigits);
}

/** Largest amount accepted for one transaction: 100,000,000.00 major units (docs/api.md). */
export function maxAmountMinor(currency: Currency): bigint {
  return 100_000_000n * minorPerMajor(currency);
}
