import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { divideRoundHalfUp, formatAmount, parseAmount } from "./amount";
import { CURRENCIES, CURRENCY_CODES, type Currency, maxAmountMinor, minorPerMajor } from "./currencies";

const RUNS = { numRuns: 300 };

function minorOf(input: string, currency: Currency = "NGN"): bigint {
  const r = parseAmount(input, currency);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(input)} to parse for ${currency}, got: ${r.reason}`);
  return r.minor;
}

function reasonOf(input: string, currency: Currency = "NGN"): string {
  const r = parseAmount(input, currency);
  if (r.ok)
    throw new Error(`expected ${JSON.stringify(input)} to be rejected for ${currency}, got ${r.minor}`);
  expect(typeof r.reason).toBe("string");
  expect(r.reason.length).toBeGreaterThan(0);
  return r.reason;
}

/** Independent of the code under test: pads/normalises the decimal text with string operations only. */
function normalise(s: string, digits: number): string {
  const [whole, fraction = ""] = s.split(".");
  return digits === 0 ? (whole as string) : `${whole}.${fraction.padEnd(digits, "0")}`;
}

const currencyArb = fc.constantFrom(...CURRENCY_CODES);
const twoDigitCurrencies = CURRENCY_CODES.filter((c) => CURRENCIES[c].minorDigits === 2);

describe("currency table", () => {
  it("has the contract currencies with their ISO 4217 minor digits", () => {
    for (const c of ["NGN", "USD", "GHS", "KES", "ZAR"] as const) {
      expect(CURRENCIES[c].minorDigits).toBe(2);
      expect(CURRENCY_CODES).toContain(c);
    }
    expect(CURRENCIES.XOF.minorDigits).toBe(0);
  });

  it("caps a transaction at 100,000,000 major units", () => {
    expect(maxAmountMinor("NGN")).toBe(10_000_000_000n);
    expect(maxAmountMinor("USD")).toBe(10_000_000_000n);
    expect(maxAmountMinor("XOF")).toBe(100_000_000n);
    expect(minorPerMajor("NGN")).toBe(100n);
    expect(minorPerMajor("XOF")).toBe(1n);
  });
});

describe("parseAmount: accepted", () => {
  it.each([
    ["5000", 500_000n],
    ["5000.5", 500_050n],
    ["5000.50", 500_050n],
    ["5000.05", 500_005n],
    ["5000.0", 500_000n],
    ["5000.00", 500_000n],
    ["0.01", 1n],
    ["0.1", 10n],
    ["0.10", 10n],
    ["1", 100n],
    ["10", 1_000n],
    ["99999999.99", 9_999_999_999n],
    ["100000000", 10_000_000_000n],
    ["100000000.00", 10_000_000_000n],
  ])("NGN %j -> %s minor", (input, expected) => {
    expect(minorOf(input, "NGN")).toBe(expected);
  });

  it("reads two-digit currencies alike", () => {
    for (const c of twoDigitCurrencies) {
      expect(minorOf("5000.5", c)).toBe(500_050n);
      expect(minorOf("0.01", c)).toBe(1n);
      expect(minorOf("100000000.00", c)).toBe(10_000_000_000n);
    }
  });

  it("reads a zero-digit currency (XOF) in whole units", () => {
    expect(minorOf("5000", "XOF")).toBe(5_000n);
    expect(minorOf("1", "XOF")).toBe(1n);
    expect(minorOf("100000000", "XOF")).toBe(100_000_000n);
  });

  it("returns a bigint", () => {
    expect(typeof minorOf("1.5")).toBe("bigint");
  });
});

describe("parseAmount: rejected", () => {
  it.each([
    ["+5000"],
    ["-5000"],
    ["-0.01"],
    ["+0.01"],
    ["1e3"],
    ["1E3"],
    ["1e+3"],
    ["5e-1"],
    ["1.5e2"],
    [" 5000"],
    ["5000 "],
    ["50 00"],
    ["5000\n"],
    ["\t5000"],
    ["5,000"],
    ["5,000.00"],
    ["5000,50"],
    ["5_000"],
    ["007"],
    ["05000"],
    ["00.50"],
    ["0"],
    ["0.0"],
    ["0.00"],
    ["00"],
    [""],
    ["."],
    [".5"],
    ["5000."],
    ["5000..5"],
    ["5.000.0"],
    ["abc"],
    ["NaN"],
    ["Infinity"],
    ["0x10"],
    ["0b1"],
    ["1n"],
    ["５０００"],
    ["٥٠٠٠"],
    ["5000\u00a0"],
  ])("NGN %j", (input) => {
    reasonOf(input, "NGN");
  });

  it("rejects zero with a 'greater than zero' reason", () => {
    expect(reasonOf("0")).toMatch(/greater than zero/);
    expect(reasonOf("0.00")).toMatch(/greater than zero/);
    expect(reasonOf("0", "XOF")).toMatch(/greater than zero/);
  });

  it("rejects more decimals than the currency has, even trailing zeros", () => {
    expect(reasonOf("1.234", "NGN")).toMatch(/at most 2 decimals/);
    expect(reasonOf("1.230", "NGN")).toMatch(/at most 2 decimals/);
    expect(reasonOf("0.001", "NGN")).toMatch(/at most 2 decimals/);
    expect(reasonOf("1.234", "USD")).toMatch(/at most 2 decimals for USD/);
    expect(reasonOf("1.5", "XOF")).toMatch(/no decimals/);
    expect(reasonOf("1.0", "XOF")).toMatch(/no decimals/);
    expect(reasonOf("5000.00", "XOF")).toMatch(/no decimals/);
  });

  it("rejects anything above 100,000,000.00", () => {
    expect(reasonOf("100000000.01", "NGN")).toMatch(/must not exceed 100000000\.00 NGN/);
    expect(reasonOf("100000001", "NGN")).toMatch(/must not exceed/);
    expect(reasonOf("999999999999", "NGN")).toMatch(/must not exceed/);
    expect(reasonOf("100000001", "XOF")).toMatch(/must not exceed 100000000 XOF/);
  });

  it("rejects huge digit strings quickly and without throwing", () => {
    const started = performance.now();
    expect(reasonOf("9".repeat(60_000))).toMatch(/must not exceed/);
    expect(reasonOf(`1${"0".repeat(13)}`)).toMatch(/must not exceed/);
    expect(reasonOf(`1${"0".repeat(400)}.00`)).toMatch(/must not exceed/);
    reasonOf(`1.${"0".repeat(60_000)}`);
    reasonOf(`${"9".repeat(30_000)}e${"9".repeat(30_000)}`);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("rejects the error message's own signs and separators for every currency", () => {
    for (const c of CURRENCY_CODES) {
      for (const bad of ["-1", "+1", "1e3", " 1", "1,000", "01", "", "0"]) reasonOf(bad, c);
    }
  });
});

describe("formatAmount", () => {
  it.each([
    [500_050n, "NGN", "5000.50"],
    [500_000n, "NGN", "5000.00"],
    [500_005n, "NGN", "5000.05"],
    [1n, "NGN", "0.01"],
    [10n, "NGN", "0.10"],
    [99n, "NGN", "0.99"],
    [100n, "NGN", "1.00"],
    [0n, "NGN", "0.00"],
    [10_000_000_000n, "NGN", "100000000.00"],
    [12_345n, "USD", "123.45"],
    [5_000n, "XOF", "5000"],
    [1n, "XOF", "1"],
    [-50n, "NGN", "-0.50"],
    [-12_345n, "NGN", "-123.45"],
  ] as const)("%s %s -> %j", (minor, currency, expected) => {
    expect(formatAmount(minor, currency)).toBe(expected);
  });

  it("always renders exactly the currency's minor digits (property)", () => {
    fc.assert(
      fc.property(currencyArb, fc.bigInt({ min: 0n, max: 10n ** 12n }), (currency, minor) => {
        const digits = CURRENCIES[currency].minorDigits;
        const pattern =
          digits === 0 ? /^(0|[1-9][0-9]*)$/ : new RegExp(`^(0|[1-9][0-9]*)\\.[0-9]{${digits}}$`);
        expect(formatAmount(minor, currency)).toMatch(pattern);
      }),
      RUNS,
    );
  });
});

describe("parseAmount/formatAmount properties", () => {
  it("round-trips every minor amount in [1, max] for each currency", () => {
    fc.assert(
      fc.property(currencyArb, fc.bigInt({ min: 1n, max: 10_000_000_000n }), (currency, raw) => {
        const minor = ((raw - 1n) % maxAmountMinor(currency)) + 1n; // into [1, max] for this currency
        const text = formatAmount(minor, currency);
        const parsed = parseAmount(text, currency);
        expect(parsed).toEqual({ ok: true, minor });
      }),
      RUNS,
    );
  });

  it("round-trips the edges of the range", () => {
    for (const currency of CURRENCY_CODES) {
      const max = maxAmountMinor(currency);
      for (const minor of [1n, 2n, 9n, 10n, 99n, 100n, 101n, max - 1n, max]) {
        expect(parseAmount(formatAmount(minor, currency), currency)).toEqual({ ok: true, minor });
      }
      expect(parseAmount(formatAmount(max + 1n, currency), currency).ok).toBe(false);
      expect(parseAmount(formatAmount(0n, currency), currency).ok).toBe(false);
    }
  });

  /** Valid decimal strings: whole part without leading zeros, 0..digits decimals, value in (0, max]. */
  const validDecimal = currencyArb.chain((currency) => {
    const digits = CURRENCIES[currency].minorDigits;
    return fc
      .tuple(
        fc.oneof(fc.bigInt({ min: 0n, max: 100_000_000n }), fc.bigInt({ min: 0n, max: 20n })),
        fc.integer({ min: 0, max: digits }),
        fc.bigInt({ min: 0n, max: 10n ** BigInt(digits) - 1n }),
      )
      .map(([whole, fractionLength, fractionValue]) => {
        // Keep `fractionLength` digits of the fraction (may end in zeros: "5000.50", "1.0").
        const fraction = fractionValue.toString().padStart(digits, "0").slice(0, fractionLength);
        const text = fractionLength === 0 ? whole.toString() : `${whole}.${fraction}`;
        return { currency, text };
      })
      .filter(
        ({ text }) =>
          /[1-9]/.test(text) && (!text.startsWith("100000000") || /^100000000(\.0*)?$/.test(text)),
      );
  });

  it("formatAmount(parseAmount(s)) is s normalised to exact minor digits", () => {
    fc.assert(
      fc.property(validDecimal, ({ currency, text }) => {
        const parsed = parseAmount(text, currency);
        if (!parsed.ok) throw new Error(`${text} ${currency} rejected: ${parsed.reason}`);
        expect(formatAmount(parsed.minor, currency)).toBe(normalise(text, CURRENCIES[currency].minorDigits));
      }),
      RUNS,
    );
  });

  it("parses the value an independent digit-by-digit reading gives", () => {
    fc.assert(
      fc.property(validDecimal, ({ currency, text }) => {
        const digits = CURRENCIES[currency].minorDigits;
        let expected = 0n;
        let seenPoint = false;
        let decimals = 0;
        for (const ch of text) {
          if (ch === ".") {
            seenPoint = true;
            continue;
          }
          expected = expected * 10n + BigInt(ch.charCodeAt(0) - 48);
          if (seenPoint) decimals++;
        }
        for (let i = decimals; i < digits; i++) expected *= 10n;
        expect(parseAmount(text, currency)).toEqual({ ok: true, minor: expected });
      }),
      RUNS,
    );
  });

  it("rejects a valid amount once a sign, exponent, space, separator or leading zero is added", () => {
    const mutate = fc.constantFrom(
      (s: string) => `-${s}`,
      (s: string) => `+${s}`,
      (s: string) => ` ${s}`,
      (s: string) => `${s} `,
      (s: string) => `${s}e0`,
      (s: string) => `${s}E2`,
      (s: string) => `0${s}`,
      (s: string) => `${s},`,
      (s: string) => `,${s}`,
      (s: string) => `${s}\n`,
      (s: string) => s.replace(/^(\d)/, "$1,"),
      (s: string) => s.replace(/^(\d)/, "$1 "),
    );
    fc.assert(
      fc.property(validDecimal, mutate, ({ currency, text }, f) => {
        expect(parseAmount(f(text), currency).ok).toBe(false);
      }),
      RUNS,
    );
  });

  it("rejects any decimal string with more fraction digits than the currency has", () => {
    fc.assert(
      fc.property(
        currencyArb,
        fc.bigInt({ min: 0n, max: 100_000n }),
        fc.stringMatching(/^[0-9]{1,6}$/),
        (currency, whole, extra) => {
          const digits = CURRENCIES[currency].minorDigits;
          const fraction = "5".repeat(digits) + extra; // at least one digit too many
          expect(parseAmount(`${whole}.${fraction}`, currency).ok).toBe(false);
        },
      ),
      RUNS,
    );
  });

  it("rejects every amount above the maximum", () => {
    fc.assert(
      fc.property(currencyArb, fc.bigInt({ min: 1n, max: 10n ** 15n }), (currency, over) => {
        const minor = maxAmountMinor(currency) + over;
        const r = parseAmount(formatAmount(minor, currency), currency);
        expect(r.ok).toBe(false);
      }),
      RUNS,
    );
  });

  it("never throws on arbitrary input, and what it accepts is canonical decimal text in range", () => {
    const input = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.stringMatching(/^[-+ .,0-9eE]{0,16}$/),
      fc.string({ unit: "grapheme", maxLength: 12 }),
    );
    fc.assert(
      fc.property(currencyArb, input, (currency, text) => {
        const r = parseAmount(text, currency);
        if (!r.ok) return;
        const digits = CURRENCIES[currency].minorDigits;
        const shape = digits === 0 ? /^(0|[1-9][0-9]*)$/ : /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;
        expect(text).toMatch(shape);
        expect(r.minor).toBeGreaterThan(0n);
        expect(r.minor).toBeLessThanOrEqual(maxAmountMinor(currency));
        expect(formatAmount(r.minor, currency)).toBe(normalise(text, digits));
      }),
      { numRuns: 400 },
    );
  });
});

describe("divideRoundHalfUp", () => {
  it.each([
    [0n, 10n, 0n],
    [4n, 10n, 0n],
    [5n, 10n, 1n],
    [6n, 10n, 1n],
    [14n, 10n, 1n],
    [15n, 10n, 2n],
    [25n, 10n, 3n],
    [1n, 2n, 1n],
    [1n, 3n, 0n],
    [2n, 3n, 1n],
    [49n, 100n, 0n],
    [50n, 100n, 1n],
    [7n, 1n, 7n],
    [-5n, 10n, -1n],
    [-4n, 10n, 0n],
    [-15n, 10n, -2n],
  ])("%s / %s -> %s", (n, d, expected) => {
    expect(divideRoundHalfUp(n, d)).toBe(expected);
  });

  it("refuses a zero or negative denominator", () => {
    expect(() => divideRoundHalfUp(1n, 0n)).toThrow(RangeError);
    expect(() => divideRoundHalfUp(1n, -10n)).toThrow(RangeError);
  });

  it("matches a quotient/remainder reference for non-negative numerators (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.bigInt({ min: 1n, max: 10n ** 6n }), (n, d) => {
        const q = n / d;
        const r = n % d;
        const expected = r * 2n >= d ? q + 1n : q;
        const got = divideRoundHalfUp(n, d);
        expect(got).toBe(expected);
        // The rounded result is within half a unit of the exact quotient.
        expect((got * d - n) * 2n <= d && (n - got * d) * 2n < d).toBe(true);
      }),
      RUNS,
    );
  });

  it("is symmetric around zero (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10n ** 4n }), (n, d) => {
        expect(divideRoundHalfUp(-n, d)).toBe(-divideRoundHalfUp(n, d));
      }),
      RUNS,
    );
  });
});
