import { afterAll, describe, expect, it, vi } from "vitest";
import { inProcessEnv, inProcessTargets, merchantWithCheckouts, useDatabase } from "./helpers/in-process";

/**
 * A virtual account number the rail issues twice (the sandbox draws 9 random digits) is drawn again, on
 * SQLite and on PostgreSQL: the unique index on account_number used to fail the request with a 500, and on
 * PostgreSQL a failed insert would also poison the rest of the database transaction. In-process against the
 * real domain code, with the sandbox rail made to repeat a number.
 */
const env = inProcessEnv("vaclash");

const { openDatabase } = await import("@/lib/db/client");
const { migrateToLatest } = await import("@/lib/db/migrate");
const { chargeBankTransfer } = await import("@/lib/channels/charge-bank-transfer");
const { sandboxRails } = await import("@/lib/rails/sandbox");

const { targets, dropAll } = inProcessTargets("vaclash");

afterAll(async () => {
  vi.restoreAllMocks();
  await dropAll();
  env.restore();
});

describe.each(targets)("virtual account numbers on $name", (target) => {
  it("a number already on record is drawn again; the request succeeds with a new one", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { merchant, open } = await merchantWithCheckouts(db, `clash-${target.name}@example.com`);

    const first = await chargeBankTransfer({ principal: await open() });
    const real = sandboxRails.transfer.issueVirtualAccount;
    const draws: string[] = [];
    // The rail repeats the first payment's number twice, then draws as usual.
    const issue = vi.spyOn(sandboxRails.transfer, "issueVirtualAccount").mockImplementation(async (input) => {
      const issued = await real(input);
      const accountNumber = draws.length < 2 ? first.accountNumber : issued.accountNumber;
      draws.push(accountNumber);
      return { ...issued, accountNumber };
    });
    try {
      const second = await chargeBankTransfer({ principal: await open() });
      expect(draws).toHaveLength(3);
      expect(second.accountNumber).toBe(draws[2]);
      expect(second.accountNumber).not.toBe(first.accountNumber);
      expect(second.status).toBe("awaiting_transfer");
      const accounts = await db
        .selectFrom("virtual_accounts")
        .select(["account_number", "transaction_id"])
        .where("merchant_id", "=", merchant.id)
        .execute();
      expect(accounts.map((a) => a.account_number).sort()).toEqual(
        [first.accountNumber, second.accountNumber].sort(),
      );

      // A rail that only ever repeats is an internal error after five draws, with nothing written.
      draws.length = 0;
      issue.mockImplementation(async (input) => ({
        ...(await real(input)),
        accountNumber: first.accountNumber,
      }));
      const third = await open();
      await expect(chargeBankTransfer({ principal: third })).rejects.toThrow(/5 account numbers/);
      const none = await db
        .selectFrom("virtual_accounts")
        .select("id")
        .where("transaction_id", "=", third.transactionId)
        .execute();
      expect(none).toEqual([]);
      const tx = await db
        .selectFrom("transactions")
        .select("status")
        .where("id", "=", third.transactionId)
        .executeTakeFirstOrThrow();
      expect(tx.status).toBe("pending");
    } finally {
      issue.mockRestore();
    }
  });
});
