import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// This file owns the process's database: point DATABASE_URL at a temp file before lib/db/client opens it.
const dir = mkdtempSync(join(tmpdir(), "paygate-payments-csv-"));
process.env.DATABASE_URL = `file:${join(dir, "db.sqlite")}`;
process.env.APP_SECRET = "payments-csv-test-secret-0123456789abcdefghijklmnop";
process.env.PAYMENTS_ENV = "staging";
const { database, db } = await import("@/lib/db/client");
const { migrateToLatest } = await import("@/lib/db/migrate");
const { signupMerchant } = await import("@/lib/merchants/signup-merchant");
const { initializePayment } = await import("@/lib/payments/initialize-payment");
const { InitializeBody } = await import("@/lib/payments/schemas");
const { paymentsCsv, csvSafe } = await import("./payments-csv");

const TOTAL = 10_000;
let merchantId: string;

beforeAll(async () => {
  await migrateToLatest(database().db);
  const { merchant } = await signupMerchant({
    businessName: "CSV Shop",
    email: "csv@example.com",
    password: "correct horse battery staple",
    clientAddress: null,
  });
  merchantId = merchant.id;
  const payment = InitializeBody.parse({ amount: "1500.00", email: "first@example.com" });
  const first = await initializePayment({ merchantId, mode: "test", payment });
  const template = await db()
    .selectFrom("transactions")
    .selectAll()
    .where("reference", "=", first.reference)
    .executeTakeFirstOrThrow();
  const now = Date.now();
  for (let start = 1; start < TOTAL; start += 500) {
    const rows = [];
    for (let i = start; i < Math.min(start + 500, TOTAL); i++) {
      rows.push({
        ...template,
        id: randomUUID(),
        reference: `PAY_TXN_csv${i}`,
        access_code: `csvaccess${i}`,
        created_at: now - i,
        customer_name: `Customer ${i}`,
      });
    }
    await db().insertInto("transactions").values(rows).execute();
  }
});

afterAll(async () => {
  await database().db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("paymentsCsv", () => {
  it("streams 10,000 payments a page at a time, reading the next page only as the reader drains", async () => {
    let read = 0;
    const stream = paymentsCsv(
      { merchantId, mode: "test", filters: {} },
      { pageSize: 500, onPage: (n) => (read += n) },
    );
    // A reader that takes one chunk and stops: the stream must stop reading the database too.
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(String(first.value)).toMatch(/^reference,created_at,status,/);
    await new Promise((r) => setTimeout(r, 300));
    expect(read).toBeGreaterThan(0);
    expect(read, "rows read while the reader waits").toBeLessThanOrEqual(3 * 500);

    // Drained to the end, every payment is there once.
    let text = String(first.value);
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      text += String(next.value);
    }
    const lines = text.trim().split("\n");
    expect(lines).toHaveLength(TOTAL + 1);
    expect(new Set(lines.slice(1).map((l) => l.split(",")[0])).size).toBe(TOTAL);
    expect(read).toBe(TOTAL);
  });

  it("keeps formula-like customer text as text", () => {
    expect(csvSafe("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvSafe("+234")).toBe("'+234");
    expect(csvSafe("@handle")).toBe("'@handle");
    expect(csvSafe("Ada Obi")).toBe("Ada Obi");
  });
});
