import { describe, expect, it } from "vitest";
import { period, periodStart } from "./periods";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe("billing periods (UTC calendar units from the start)", () => {
  it("a monthly start on the 31st renews on the last day of shorter months, and on the 31st after them", () => {
    const start = at("2026-01-31T09:15:00.000Z");
    const starts = Array.from({ length: 13 }, (_, k) => iso(periodStart(start, "monthly", k)));
    expect(starts).toEqual([
      "2026-01-31T09:15:00.000Z",
      "2026-02-28T09:15:00.000Z",
      "2026-03-31T09:15:00.000Z",
      "2026-04-30T09:15:00.000Z",
      "2026-05-31T09:15:00.000Z",
      "2026-06-30T09:15:00.000Z",
      "2026-07-31T09:15:00.000Z",
      "2026-08-31T09:15:00.000Z",
      "2026-09-30T09:15:00.000Z",
      "2026-10-31T09:15:00.000Z",
      "2026-11-30T09:15:00.000Z",
      "2026-12-31T09:15:00.000Z",
      "2027-01-31T09:15:00.000Z",
    ]);
  });

  it("in a leap year February has 29 days; 29 February renews annually on 28 February, then 29 again", () => {
    expect(iso(periodStart(at("2028-01-31T00:00:00.000Z"), "monthly", 1))).toBe("2028-02-29T00:00:00.000Z");
    const leap = at("2028-02-29T12:00:00.000Z");
    expect([1, 2, 3, 4].map((k) => iso(periodStart(leap, "annually", k)))).toEqual([
      "2029-02-28T12:00:00.000Z",
      "2030-02-28T12:00:00.000Z",
      "2031-02-28T12:00:00.000Z",
      "2032-02-29T12:00:00.000Z",
    ]);
  });

  it("quarterly and biannually count calendar months across years; daily and weekly count days", () => {
    const start = at("2026-11-30T23:59:59.999Z");
    expect(iso(periodStart(start, "quarterly", 1))).toBe("2027-02-28T23:59:59.999Z");
    expect(iso(periodStart(start, "quarterly", 2))).toBe("2027-05-30T23:59:59.999Z");
    expect(iso(periodStart(start, "biannually", 1))).toBe("2027-05-30T23:59:59.999Z");
    expect(iso(periodStart(start, "biannually", 2))).toBe("2027-11-30T23:59:59.999Z");
    expect(iso(periodStart(start, "daily", 2))).toBe("2026-12-02T23:59:59.999Z");
    expect(iso(periodStart(start, "weekly", 5))).toBe("2027-01-04T23:59:59.999Z");
  });

  it("a period ends where the next begins; period 0 starts at the start", () => {
    const start = at("2026-03-15T08:00:00.000Z");
    expect(period(start, "monthly", 0)).toEqual({ start, end: at("2026-04-15T08:00:00.000Z") });
    for (let k = 0; k < 40; k++) {
      expect(period(start, "monthly", k).end).toBe(period(start, "monthly", k + 1).start);
      expect(period(start, "monthly", k).end).toBeGreaterThan(period(start, "monthly", k).start);
    }
  });
});
