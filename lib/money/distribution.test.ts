import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatAmount } from "./amount";
import { CURRENCIES, CURRENCY_CODES, type Currency, maxAmountMinor } from "./currencies";
import { checkDistribution, DISTRIBUTION_KEY, MAX_DISTRIBUTION_ENTRIES } from "./distribution";

const RUNS = { numRuns: 300 };

const NGN_5000 = 500_000n;

function accepted(
  distribution: Record<string, number | string>,
  amountMinor = NGN_5000,
  currency: Currency = "NGN",
): Record<string, bigint> {
  const r = checkDistribution(distribution, amountMinor, currency);
  if (!r.ok) throw new Error(`expected acceptance, got ${JSON.stringify(r.issue)}`);
  return r.minor;
}

function rejected(
  distribution: Record<string, number | string>,
  amountMinor = NGN_5000,
  currency: Currency = "NGN",
): { path: string[]; message: string } {
  const r = checkDistribution(distribution, amountMinor, currency);
  if (r.ok) throw new Error(`expected rejection, got ${JSON.stringify(r.minor, (_k, v) => String(v))}`);
  expect(r.issue.message.length).toBeGreaterThan(0);
  return r.issue;
}

/** Independent key rule: 1..64 characters, each an ASCII letter, digit, "_" or "-". */
function keyAllowed(key: string): boolean {
  if (key.length < 1 || key.length > 64) return false;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    const ok = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
    if (!ok) return false;
  }
  return true;
}

const keyArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);

describe("checkDistribution: values", () => {
  it("reads string values as amounts and returns minor units", () => {
    expect(accepted({ a: "100.50", b: "200", c: "0.01" })).toEqual({ a: 10_050n, b: 20_000n, c: 1n });
  });

  it("reads number values from their decimal text", () => {
    expect(accepted({ a: 100.5 })).toEqual({ a: 10_050n });
    expect(accepted({ a: 100.05 })).toEqual({ a: 10_005n });
    expect(accepted({ a: 0.1 })).toEqual({ a: 10n });
    expect(accepted({ a: 0.01 })).toEqual({ a: 1n });
    expect(accepted({ a: 1.1 })).toEqual({ a: 110n }); // 1.1 is not exact in binary; its text "1.1" is
    expect(accepted({ a: 4.35 })).toEqual({ a: 435n }); // 4.35 * 100 === 434.99999999999994 as a float
    expect(accepted({ a: 2500 })).toEqual({ a: 250_000n });
    expect(accepted({ a: 12345678.91 }, 10_000_000_000n)).toEqual({ a: 1_234_567_891n });
  });

  it("rejects exponent notation, as a number or a string", () => {
    for (const v of [1e21, 1e-7, 5e-324, "1e3", "1E3", "1e+3"]) {
      expect(rejected({ a: v }).path).toEqual(["a"]);
    }
    expect(String(1e21)).toBe("1e+21"); // what the number is read as
  });

  it("rejects too many decimals for the currency", () => {
    expect(rejected({ a: 1.234 }).path).toEqual(["a"]);
    expect(rejected({ a: "1.234" }).path).toEqual(["a"]);
    expect(rejected({ a: "1.230" }).path).toEqual(["a"]);
    expect(rejected({ a: 0.1 + 0.2 }).path).toEqual(["a"]); // 0.30000000000000004
    expect(rejected({ a: 0.001 }).path).toEqual(["a"]);
    expect(rejected({ a: 1.5 }, 5_000n, "XOF").path).toEqual(["a"]);
    expect(rejected({ a: "1.0" }, 5_000n, "XOF").path).toEqual(["a"]);
    expect(accepted({ a: 1500 }, 5_000n, "XOF")).toEqual({ a: 1_500n });
  });

  it("rejects zero, negative and non-finite values", () => {
    for (const v of [0, -0, -1, -100.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(rejected({ a: v }).path).toEqual(["a"]);
    }
    for (const v of ["0", "0.00", "-1", "+1", "", " 1", "1,000", "007", "abc"]) {
      expect(rejected({ a: v }).path).toEqual(["a"]);
    }
  });

  it("rejects a value above the per-transaction maximum on the value itself", () => {
    expect(rejected({ a: 1e20 }, 10_000_000_000n).path).toEqual(["a"]);
    expect(rejected({ a: "100000000.01" }, 10_000_000_000n).path).toEqual(["a"]);
  });

  it("names the offending key and gives the amount reason", () => {
    const issue = rejected({ good: 1, bad: "1.234" });
    expect(issue.path).toEqual(["bad"]);
    expect(issue.message).toMatch(/positive amount/);
    expect(issue.message).toMatch(/at most 2 decimals/);
  });
});

describe("checkDistribution: sum", () => {
  it("accepts a sum equal to the amount", () => {
    expect(accepted({ a: "2500.00", b: 2500 })).toEqual({ a: 250_000n, b: 250_000n });
  });

  it("accepts a sum below the amount", () => {
    expect(accepted({ a: "2500.00", b: "2499.99" })).toEqual({ a: 250_000n, b: 249_999n });
  });

  it("rejects a sum one minor unit above the amount, at the top level", () => {
    const issue = rejected({ a: "2500.00", b: "2500.01" });
    expect(issue.path).toEqual([]);
    expect(issue.message).toMatch(/sum to at most amount \(5000\.00\)/);
  });

  it("rejects a single value above the amount", () => {
    expect(rejected({ a: 5000.01 }).path).toEqual([]);
  });

  it("sums with bigint, not float (values whose float sum is off)", () => {
    // 0.1 + 0.2 !== 0.3 as floats; in minor units 10 + 20 === 30.
    expect(accepted({ a: 0.1, b: 0.2 }, 30n)).toEqual({ a: 10n, b: 20n });
    expect(rejected({ a: 0.1, b: 0.2 }, 29n).path).toEqual([]);
  });
});

describe("checkDistribution: shape and keys", () => {
  it("rejects an empty object", () => {
    const issue = rejected({});
    expect(issue.path).toEqual([]);
    expect(issue.message).toMatch(/at least one entry/);
  });

  it(`accepts ${MAX_DISTRIBUTION_ENTRIES} entries and rejects one more`, () => {
    const build = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "1"]));
    expect(Object.keys(accepted(build(MAX_DISTRIBUTION_ENTRIES)))).toHaveLength(MAX_DISTRIBUTION_ENTRIES);
    expect(rejected(build(MAX_DISTRIBUTION_ENTRIES + 1)).path).toEqual([]);
  });

  it.each(["a", "Z", "0", "_", "-", "svc_1", "A-b_C-9", "x".repeat(64)])("accepts key %j", (key) => {
    expect(accepted({ [key]: "1" })).toEqual({ [key]: 100n });
  });

  it.each(["", "x".repeat(65), "a b", "a.b", "a/b", "a:b", "a\n", "\na", "é", "ａ", "a+b", "a$", "😀"])(
    "rejects key %j",
    (key) => {
      const issue = rejected({ [key]: "1" });
      expect(issue.path).toEqual([key]);
      expect(issue.message).toMatch(/key must match/);
    },
  );

  it("the exported key pattern is the contract's", () => {
    expect(DISTRIBUTION_KEY.source).toBe("^[A-Za-z0-9_-]{1,64}$");
    expect(DISTRIBUTION_KEY.flags).toBe("");
  });

  it("keeps keys that collide with Object.prototype names as own entries", () => {
    const input = JSON.parse('{"__proto__": "1.00", "constructor": 2, "toString": "3", "hasOwnProperty": 4}');
    const minor = accepted(input);
    expect(Object.keys(minor).sort()).toEqual(["__proto__", "constructor", "hasOwnProperty", "toString"]);
    expect(Object.getOwnPropertyDescriptor(minor, "__proto__")?.value).toBe(100n);
    expect(minor.constructor).toBe(200n);
    expect(minor.toString).toBe(300n);
    expect(Object.getPrototypeOf(minor)).toBe(Object.prototype); // no prototype pollution either
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
  });

  it("counts a __proto__ entry in the sum", () => {
    const input = JSON.parse('{"__proto__": "4000.00", "b": "1000.01"}');
    expect(rejected(input).path).toEqual([]);
  });
});

describe("checkDistribution properties", () => {
  const currencyArb = fc.constantFrom(...CURRENCY_CODES);
  const entriesArb = currencyArb.chain((currency) =>
    fc
      .uniqueArray(fc.tuple(keyArb, fc.bigInt({ min: 1n, max: maxAmountMinor(currency) / 12n })), {
        minLength: 1,
        maxLength: 12,
        selector: ([k]) => k,
      })
      .chain((entries) => {
        const sum = entries.reduce((acc, [, v]) => acc + v, 0n);
        return fc
          .oneof(fc.bigInt({ min: sum, max: sum + 1_000n }), fc.bigInt({ min: 1n, max: sum }))
          .map((amount) => ({ currency, entries, sum, amount }));
      }),
  );

  it("accepts iff the sum fits, and returns each value's minor units (values as decimal strings)", () => {
    fc.assert(
      fc.property(entriesArb, ({ currency, entries, sum, amount }) => {
        const input = Object.fromEntries(entries.map(([k, v]) => [k, formatAmount(v, currency)]));
        const r = checkDistribution(input, amount, currency);
        expect(r.ok).toBe(sum <= amount);
        if (r.ok) expect(r.minor).toEqual(Object.fromEntries(entries));
        else expect(r.issue.path).toEqual([]);
      }),
      RUNS,
    );
  });

  it("reads the same minor units from the JSON number of each value", () => {
    fc.assert(
      fc.property(entriesArb, ({ currency, entries, sum }) => {
        const input = Object.fromEntries(entries.map(([k, v]) => [k, Number(formatAmount(v, currency))]));
        expect(checkDistribution(input, sum, currency)).toEqual({
          ok: true,
          minor: Object.fromEntries(entries),
        });
      }),
      RUNS,
    );
  });

  it("reads any JSON number with at most the minor digits up to the maximum exactly", () => {
    fc.assert(
      fc.property(currencyArb, fc.bigInt({ min: 1n, max: 10_000_000_000n }), (currency, raw) => {
        const max = maxAmountMinor(currency);
        const minor = ((raw - 1n) % max) + 1n;
        const asNumber = Number(formatAmount(minor, currency));
        expect(checkDistribution({ k: asNumber }, max, currency)).toEqual({ ok: true, minor: { k: minor } });
      }),
      RUNS,
    );
  });

  it("for an arbitrary double: accepted only when its text has at most the minor digits, and exactly then", () => {
    fc.assert(
      fc.property(
        currencyArb,
        fc.oneof(
          fc.double(),
          fc.double({ min: -1, max: 1e9 }),
          fc.integer({ min: -5, max: 1e9 }).map((i) => i / 100),
        ),
        (currency, d) => {
          const max = maxAmountMinor(currency);
          const r = checkDistribution({ k: d }, max, currency);
          const text = String(d);
          const digits = CURRENCIES[currency].minorDigits;
          const shape = digits === 0 ? /^[1-9][0-9]*$/ : /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;
          const expectOk = shape.test(text) && d > 0 && d <= 100_000_000;
          expect(r.ok).toBe(expectOk);
          if (r.ok) {
            const minor = r.minor.k as bigint;
            // What the service renders back (present.ts: Number(formatAmount(minor))) is the same number.
            expect(Number(formatAmount(minor, currency))).toBe(d);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("accepts a key iff an independent character check allows it", () => {
    const anyKey = fc.oneof(
      keyArb,
      fc.string({ maxLength: 70 }),
      fc.stringMatching(/^[A-Za-z0-9_\-. /:é]{0,66}$/),
      fc.integer({ min: 60, max: 70 }).map((n) => "k".repeat(n)),
    );
    fc.assert(
      fc.property(anyKey, (key) => {
        const r = checkDistribution({ [key]: "1" }, NGN_5000, "NGN");
        expect(r.ok).toBe(keyAllowed(key));
        if (!r.ok) expect(r.issue.path).toEqual([key]);
      }),
      { numRuns: 500 },
    );
  });
});
