import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { parseOrThrow } from "@/lib/core/validation";
import { FeesBody } from "./schemas";

function refusal(fees: unknown): string {
  try {
    parseOrThrow(FeesBody, fees, "fees");
  } catch (err) {
    if (err instanceof AppError) return err.message;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(fees)} to be refused`);
}

describe("a merchant's fee rules as the operator gives them (FeesBody)", () => {
  it("refuses rules that break a rule, naming the field", () => {
    const cases: Array<[unknown, string]> = [
      [{ NGN: { card: { percent: "1.505" } } }, "NGN.card.percent must be a percentage string"],
      [{ NGN: { card: { percent: "101" } } }, "NGN.card.percent must be a percentage string"],
      [{ NGN: { card: { percent: 1.5 } } }, "NGN.card.percent must be a string"],
      [{ NGN: { card: { percent: "1", cap: "0" } } }, "NGN.card.cap must be greater than zero"],
      [
        { NGN: { transfer: { percent: "1", flat: "1.001" } } },
        "NGN.transfer.flat must have at most 2 decimals",
      ],
      [{ XOF: { card: { percent: "1", flat: "1.5" } } }, "XOF.card.flat must have no decimals for XOF"],
      [{ NGN: { card: { percent: "1", flat: "-5" } } }, "NGN.card.flat must be a decimal string"],
      [{ NGN: {} }, "NGN must name card, transfer or both"],
      [{ NGN: { cash: { percent: "1" } } }, 'NGN has unknown field "cash"'],
      [{ EUR: { card: { percent: "1" } } }, 'has unknown field "EUR"'],
      [{ NGN: { card: { percent: "1", surcharge: "2" } } }, 'NGN.card has unknown field "surcharge"'],
      [[], "must be an object"],
    ];
    for (const [fees, message] of cases) expect(refusal(fees), JSON.stringify(fees)).toContain(message);
  });

  it("reads good rules into basis points and minor units, and null as 'restore the default'", () => {
    expect(
      parseOrThrow(
        FeesBody,
        { NGN: { card: { percent: "2.5", flat: "50.00", cap: null }, transfer: null }, USD: null },
        "fees",
      ),
    ).toEqual({
      NGN: { card: { bps: "250", flat: "5000", waivedBelow: "0", cap: null }, transfer: null },
      USD: null,
    });
  });
});
