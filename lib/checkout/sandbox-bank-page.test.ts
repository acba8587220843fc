import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// This file owns the process's database: point DATABASE_URL at a temp file before lib/db/client opens it.
const dir = mkdtempSync(join(tmpdir(), "paygate-sandbox-bank-"));
process.env.DATABASE_URL = `file:${join(dir, "db.sqlite")}`;
process.env.SQLITE_CHECKPOINTS = "inline";
process.env.APP_SECRET = "sandbox-bank-test-secret-0123456789abcdefghijklmnop";
process.env.PAYMENTS_ENV = "staging";
process.env.PUBLIC_BASE_URL = "https://pay.example";
const { database, db } = await import("@/lib/db/client");
const { migrateToLatest } = await import("@/lib/db/migrate");
const { signupMerchant } = await import("@/lib/merchants/signup-merchant");
const { initializePayment } = await import("@/lib/payments/initialize-payment");
const { InitializeBody } = await import("@/lib/payments/schemas");
const { authenticateAccessCode } = await import("@/lib/payments/authenticate-access-code");
const { chargeCard } = await import("@/lib/channels/charge-card");
const { answerSandboxBank, sandboxBankPage } = await import("./sandbox-bank-page");

let merchantId: string;
let address = 0;

/** A payment charged with the sandbox's 3-D Secure card: its access code, and where the bank's page is. */
async function chargedWith3ds() {
  const payment = InitializeBody.parse({ amount: "5000.00", email: "buyer@example.com" });
  const session = await initializePayment({ merchantId, mode: "test", payment });
  const principal = await authenticateAccessCode({
    accessCode: session.accessCode,
    clientAddress: `198.51.100.${++address}`,
  });
  const result = await chargeCard({
    principal,
    card: { number: "4000000000003063", expiryMonth: 12, expiryYear: 2040, cvv: "123" },
  });
  expect(result).toMatchObject({ status: "awaiting_action", action: { step: "redirect" } });
  const url = new URL((result as { action: { url: string } }).action.url);
  expect(`${url.origin}${url.pathname}`).toBe("https://pay.example/pay/sandbox/bank");
  return {
    accessCode: session.accessCode,
    reference: session.reference,
    attemptId: url.searchParams.get("attempt") ?? "",
    authorization: url.searchParams.get("authorization") ?? "",
  };
}

async function statusOf(reference: string) {
  return (
    await db()
      .selectFrom("transactions")
      .select("status")
      .where("reference", "=", reference)
      .executeTakeFirstOrThrow()
  ).status;
}

beforeAll(async () => {
  await migrateToLatest(database().db);
  const { merchant } = await signupMerchant({
    businessName: "Bank Page Shop",
    email: "sandbox-bank@example.com",
    password: "correct horse battery staple",
    clientAddress: null,
  });
  merchantId = merchant.id;
});

afterAll(async () => {
  await database().db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("the sandbox bank's 3-D Secure page", () => {
  it("shows who charges how much on which card, and Approve pays the checkout once", async () => {
    const charge = await chargedWith3ds();
    expect(await sandboxBankPage(charge)).toEqual({
      merchant: "Bank Page Shop",
      amount: "5175.00",
      currency: "NGN",
      card: "Visa •••• 3063",
    });
    expect(await statusOf(charge.reference)).toBe("pending");

    const back = await answerSandboxBank({ ...charge, decision: "approve" });
    expect(back).toBe(`/pay/${charge.accessCode}`);
    expect(await statusOf(charge.reference)).toBe("success");
    // Answered: the page has nothing left to confirm, and a second answer changes nothing.
    expect(await sandboxBankPage(charge)).toBeNull();
    expect(await answerSandboxBank({ ...charge, decision: "decline" })).toBe(`/pay/${charge.accessCode}`);
    expect(await statusOf(charge.reference)).toBe("success");
  });

  it("Decline refuses the card, and the customer may pay again", async () => {
    const charge = await chargedWith3ds();
    // Back on the card form, which says why.
    expect(await answerSandboxBank({ ...charge, decision: "decline" })).toBe(
      `/pay/${charge.accessCode}?channel=card&problem=decline%3Acard_declined`,
    );
    expect(await statusOf(charge.reference)).toBe("pending");
    const attempt = await db()
      .selectFrom("charge_attempts")
      .select(["status", "failure_reason"])
      .where("id", "=", charge.attemptId)
      .executeTakeFirstOrThrow();
    expect(attempt).toEqual({ status: "failed", failure_reason: "card_declined" });
  });

  it("an address the sandbox did not give opens nothing and answers nothing", async () => {
    const charge = await chargedWith3ds();
    for (const forged of [
      { ...charge, authorization: "auth_forged000000000000000" },
      { ...charge, attemptId: "att_unknown" },
      { attemptId: "", authorization: "" },
      { attemptId: "x'; drop table transactions; --", authorization: charge.authorization },
    ]) {
      expect(await sandboxBankPage(forged)).toBeNull();
      expect(await answerSandboxBank({ ...forged, decision: "approve" })).toBeNull();
    }
    expect(await statusOf(charge.reference)).toBe("pending");
  });

  it("a card attempt the sandbox network did not take (a processor's) is never shown or answered here", async () => {
    const charge = await chargedWith3ds();
    await db().deleteFrom("sandbox_card_charges").where("attempt_id", "=", charge.attemptId).execute();
    expect(await sandboxBankPage(charge)).toBeNull();
    expect(await answerSandboxBank({ ...charge, decision: "approve" })).toBeNull();
    expect(await statusOf(charge.reference)).toBe("pending");
  });
});
