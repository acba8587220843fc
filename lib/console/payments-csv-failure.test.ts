import type { Readable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";

// The list verb fails on its second page, as a query the database refuses would part-way through an export.
const listTransactions = vi.fn();
vi.mock("@/lib/payments/list-transactions", () => ({ listTransactions }));
// No refunds on these pages (the refund columns' query is the database's, not this test's).
vi.mock("./refund-counts", () => ({ refundCounts: async () => new Map() }));
const logged: Array<[string, Record<string, unknown> | undefined]> = [];
vi.mock("@/lib/log", () => ({
  log: {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: (msg: string, fields?: Record<string, unknown>) => logged.push([msg, fields]),
  },
}));
const { paymentsCsv } = await import("./payments-csv");

function page(n: number, next: string | null) {
  return {
    transactions: Array.from({ length: n }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      reference: `PAY_TXN_fail${i}`,
      createdAt: "2026-11-27T10:00:00.000Z",
      status: "success",
      amount: "100.00",
      currency: "NGN",
      channel: "card",
      fees: "1.50",
      total: "101.50",
      amountSettled: "100.00",
      paidAt: "2026-11-27T10:00:01.000Z",
      customer: { email: "a@example.com", name: "A" },
      amountRefunded: "0.00",
      metadata: {},
    })),
    nextCursor: next,
  };
}

/** Read the stream to its end or its error, giving up after `ms` (a stream that never ends fails). */
function readAll(stream: Readable, ms = 3_000): Promise<{ text: string; error: Error | null }> {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`the stream neither ended nor failed in ${ms} ms`)), ms);
    stream.on("data", (chunk) => {
      text += String(chunk);
    });
    stream.on("end", () => {
      clearTimeout(timer);
      resolve({ text, error: null });
    });
    stream.on("error", (error) => {
      clearTimeout(timer);
      resolve({ text, error });
    });
  });
}

afterEach(() => {
  listTransactions.mockReset();
  logged.length = 0;
});

describe("paymentsCsv when a page cannot be read", () => {
  it("ends the stream with the error and logs it once, with no uncaught exception", async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on("uncaughtException", onUncaught);
    try {
      listTransactions
        .mockResolvedValueOnce(page(3, "cursor-2"))
        .mockRejectedValueOnce(new Error('invalid byte sequence for encoding "UTF8": 0x00'));
      const stream = paymentsCsv({ merchantId: "m_1", mode: "test", filters: {} }, { pageSize: 3 });
      const { text, error } = await readAll(stream);
      expect(error?.message).toContain("invalid byte sequence");
      // What was read before the failure was sent; nothing after it.
      expect(text.trim().split("\n")).toHaveLength(4);
      await new Promise((r) => setTimeout(r, 50));
      expect(logged.map(([msg]) => msg)).toEqual(["payments CSV export failed part-way"]);
      expect(uncaught).toEqual([]);
      expect(stream.destroyed).toBe(true);
    } finally {
      process.off("uncaughtException", onUncaught);
    }
  });

  it("a reader that goes away early is no failure: nothing is logged", async () => {
    listTransactions.mockResolvedValue(page(500, "more"));
    const stream = paymentsCsv({ merchantId: "m_1", mode: "test", filters: {} }, { pageSize: 500 });
    await new Promise<void>((resolve) => stream.once("data", () => resolve()));
    stream.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect(logged).toEqual([]);
  });
});
