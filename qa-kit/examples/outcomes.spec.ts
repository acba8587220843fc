// The suite a merchant's QA team writes with the kit: every outcome of the scenario catalogue
// (docs/testing.md), one test each, with only a test key and the hosted page. Run it against any
// deployment: PAYGATE_URL=https://... PAYGATE_TEST_KEY=sk_test_... npx playwright test -c qa-kit/examples
//
// Each test's waits for the service are reported against the kit's 2 s budget (its `waited` annotation); set
// `waitBudgetMs` (or PAYGATE_WAIT_BUDGET_MS) to fail a test over it. Its own waits for a page state go through
// `checkout.expectVisible`, so they count too (`{poll: true}` where the page learns a change made through the
// API on its next poll: the poll interval is the page's schedule, not the service's time).
import { expect, startWebhookReceiver, TEST_ACCOUNTS, TEST_CARDS, test } from "../index.mjs";

/** The merchant's own return page; answered here so the suite needs no shop of its own. */
const CALLBACK = "https://shop.example/checkout/return";

test.beforeEach(async ({ page }) => {
  await page.route("https://shop.example/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: "<!doctype html><title>Shop</title><h1>Back at the shop</h1>",
    }),
  );
});

test.describe("card", () => {
  test("success: back at callbackUrl with status success, payment.completed sent, verify says success", async ({
    paygate,
    checkout,
  }) => {
    const session = await paygate.initialize({ callbackUrl: CALLBACK });
    await checkout.open(session);
    await checkout.payByCard(TEST_CARDS.success);
    await checkout.expectResult("success");
    const back = await checkout.expectReturn(CALLBACK, "success");
    expect(back).toMatchObject({ amount: "5000.00", currency: "NGN" });

    const event = await paygate.waitForEvent("payment.completed", session.reference);
    expect(event.payload).toMatchObject({ data: { reference: session.reference, status: "success" } });
    expect(await paygate.verify(session.reference)).toMatchObject({ status: "success", channel: "card" });
  });

  test("declined: the page says so and the payment stays open for another try", async ({
    paygate,
    checkout,
    page,
  }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    await checkout.payByCard(TEST_CARDS.declined);
    await checkout.expectVisible(page.getByRole("heading", { name: "Payment declined" }));
    expect((await paygate.verify(session.reference)).status).toBe("pending");
  });

  test("insufficient funds: the page says so; another card then pays", async ({
    paygate,
    checkout,
    page,
  }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    await checkout.payByCard(TEST_CARDS.insufficientFunds);
    await checkout.expectVisible(
      page.getByText("This card does not have enough funds. Nothing was charged."),
    );
    await page.getByRole("button", { name: "Try another card" }).click();
    await checkout.payByCard(TEST_CARDS.success);
    await checkout.expectResult("success");
  });

  test("one-time password: the right one pays", async ({ paygate, checkout }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    await checkout.payByCard(TEST_CARDS.otp);
    await checkout.enterOtp();
    await checkout.expectResult("success");
    expect((await paygate.verify(session.reference)).status).toBe("success");
  });

  test("one-time password: a wrong one is typed again, the third fails the attempt, nothing charged", async ({
    paygate,
    checkout,
    page,
  }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    await checkout.payByCard(TEST_CARDS.otp);
    for (const left of [2, 1]) {
      await checkout.enterOtp("000000");
      await checkout.expectVisible(
        page.getByText(`That code is not correct. Type it again (tries left: ${left}).`),
      );
    }
    await checkout.enterOtp("000000");
    await checkout.expectVisible(
      page.getByText("The one-time password was not correct. Nothing was charged."),
    );
    expect((await paygate.verify(session.reference)).status).toBe("pending");
  });

  test("3-D Secure: confirmed on the bank's page, back at callbackUrl", async ({ paygate, checkout }) => {
    const session = await paygate.initialize({ callbackUrl: CALLBACK });
    await checkout.open(session);
    await checkout.payByCard(TEST_CARDS.threeDSecure);
    await checkout.confirmOnBankPage("approve");
    await checkout.expectResult("success");
    await checkout.expectReturn(CALLBACK, "success");
    expect((await paygate.verify(session.reference)).status).toBe("success");
  });
});

test.describe("bank transfer", () => {
  test("the exact amount pays: back at callbackUrl, payment.completed", async ({ paygate, checkout }) => {
    const session = await paygate.initialize({ callbackUrl: CALLBACK });
    await checkout.open(session);
    await checkout.payByTransfer();
    await checkout.expectResult("success");
    await checkout.expectReturn(CALLBACK, "success");
    await paygate.waitForEvent("payment.completed", session.reference);
    expect(await paygate.verify(session.reference)).toMatchObject({
      status: "success",
      channel: "bank_transfer",
    });
  });

  test("too little, then the rest: transfers to the account add up; checkout.amount_mismatch says what is due", async ({
    paygate,
    checkout,
    page,
  }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    const account = await checkout.payByTransfer({ amount: "100.00" });
    const event = await paygate.waitForEvent("checkout.amount_mismatch", session.reference);
    expect(event.payload).toMatchObject({
      data: {
        reference: session.reference,
        amountMismatch: { expected: account.amount, received: "100.00" },
      },
    });
    const due = event.payload.data.amountMismatch.due;
    await checkout.expectVisible(page.getByRole("heading", { name: /^Transfer / }));
    expect((await paygate.verify(session.reference)).status).toBe("awaiting_transfer");
    // The rest then pays; the open page learns it on its next poll. Nothing goes back.
    await paygate.transfer({ accountNumber: account.accountNumber, amount: due });
    await checkout.expectResult("success", { poll: true });
    expect(await paygate.refunds(session.reference)).toEqual([]);
  });

  test("too much: the payment completes and the excess is refunded automatically", async ({
    paygate,
    checkout,
  }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    const account = await checkout.payByTransfer({ amount: "999999.00" });
    await paygate.waitForEvent("payment.completed", session.reference);
    expect((await paygate.verify(session.reference)).status).toBe("success");
    const refunds = await paygate.refunds(session.reference);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ type: "automatic", reason: "amount_mismatch" });
    // In minor units, as money is counted: what was sent less what the payment needed.
    const minor = (amount: string) => BigInt(amount.replace(".", ""));
    expect(minor(refunds[0]?.amount ?? "0")).toBe(minor("999999.00") - minor(account.amount));
  });

  test("twice: the second transfer is a duplicate and changes nothing", async ({ paygate, checkout }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    const account = await checkout.payByTransfer();
    await checkout.expectResult("success");
    const second = await paygate.transfer({ accountNumber: account.accountNumber, amount: account.amount });
    expect(second.outcome).toBe("duplicate_payment");
    expect((await paygate.verify(session.reference)).status).toBe("success");
  });

  test("late: the clock passes the window, the open page shows the account expired, money sent after is not credited", async ({
    paygate,
    checkout,
    page,
  }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    const account = await checkout.getTransferAccount();
    await paygate.advanceClock(session.reference, 30 * 60);
    const late = await paygate.transfer({ accountNumber: account.accountNumber, amount: account.amount });
    expect(late.outcome).toBe("late_payment");
    expect((await paygate.verify(session.reference)).status).toBe("awaiting_transfer");
    // The money goes back by itself: an automatic refund, never a credit.
    const [refund] = await paygate.refunds(session.reference);
    expect(refund).toMatchObject({ type: "automatic", reason: "late_payment", amount: account.amount });
    // Meanwhile the open page has polled (every 1.5 s while a transfer is awaited): the account expired.
    await checkout.expectVisible(page.getByRole("heading", { name: "This account number has expired" }), {
      poll: true,
    });
  });

  test("to an unknown account: never credited, the money comes back by an automatic refund", async ({
    paygate,
  }) => {
    const sessionId = `qa-unknown-${Date.now()}`;
    const sent = await paygate.transfer({
      accountNumber: TEST_ACCOUNTS.unknown,
      amount: "1500.00",
      sessionId,
    });
    expect(sent).toMatchObject({ outcome: "unknown_account", reference: null, replayed: false });
    // No payment owns it: the refund is in the key's list, with no reference.
    const refunds = await paygate.refunds();
    expect(refunds.find((r) => r.reason === "unknown_account")).toMatchObject({
      type: "automatic",
      reference: null,
      amount: "1500.00",
    });
  });

  test("failed: the test button fails the transfer; back at callbackUrl with status failed, payment.failed", async ({
    paygate,
    checkout,
  }) => {
    const session = await paygate.initialize({ callbackUrl: CALLBACK });
    await checkout.open(session);
    await checkout.getTransferAccount();
    await checkout.failTransfer();
    await checkout.expectResult("failed");
    await checkout.expectReturn(CALLBACK, "failed");
    await paygate.waitForEvent("payment.failed", session.reference);
  });
});

test.describe("bank payment and USSD", () => {
  test("bank app: approved pays", async ({ paygate, checkout }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    await checkout.approveInBankApp();
    await checkout.expectResult("success");
    expect(await paygate.verify(session.reference)).toMatchObject({
      status: "success",
      channel: "bank_payment",
    });
  });

  test("bank app: declined leaves the payment open", async ({ paygate, checkout }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    await checkout.approveInBankApp({ decision: "decline" });
    expect((await paygate.verify(session.reference)).status).toBe("pending");
  });

  test("USSD: approved pays", async ({ paygate, checkout }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    await checkout.payByUssd();
    await checkout.expectResult("success");
    expect(await paygate.verify(session.reference)).toMatchObject({ status: "success", channel: "ussd" });
  });

  test("USSD: declined leaves the payment open", async ({ paygate, checkout }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    await checkout.payByUssd({ decision: "decline" });
    expect((await paygate.verify(session.reference)).status).toBe("pending");
  });
});

test.describe("saved cards", () => {
  test("saved with the box ticked, then charged with the customer away: success", async ({
    paygate,
    saveCard,
  }) => {
    const saved = await saveCard(TEST_CARDS.success);
    const customer = await paygate.customer(saved.customerCode);
    expect(customer.authorizations.map((a) => a.authorizationCode)).toEqual([saved.authorizationCode]);
    const charge = await paygate.chargeAuthorization(saved.authorizationCode);
    expect(charge).toMatchObject({ status: "success", amount: "2500.00" });
    await paygate.waitForEvent("payment.completed", charge.reference);
  });

  test("the card that declines later: the charge fails card_declined, payment.failed sent", async ({
    paygate,
    saveCard,
  }) => {
    const saved = await saveCard(TEST_CARDS.savesThenDeclines);
    const charge = await paygate.chargeAuthorization(saved.authorizationCode);
    expect(charge).toMatchObject({ status: "failed", reason: "card_declined" });
    await paygate.waitForEvent("payment.failed", charge.reference);
  });

  test("the card that asks for an OTP: requires_action, finished by the customer on the hosted page", async ({
    paygate,
    checkout,
    saveCard,
  }) => {
    const saved = await saveCard(TEST_CARDS.savesThenOtp);
    const charge = await paygate.chargeAuthorization(saved.authorizationCode);
    expect(charge.status).toBe("requires_action");
    await checkout.finishSavedCardCharge(charge);
    await checkout.expectResult("success");
    expect((await paygate.verify(charge.reference)).status).toBe("success");
  });

  test("deactivated or expired: the charge is refused with authorization_inactive", async ({
    paygate,
    saveCard,
  }) => {
    const first = await saveCard(TEST_CARDS.success);
    await paygate.deactivateCard(first.authorizationCode);
    await expect(paygate.chargeAuthorization(first.authorizationCode)).rejects.toMatchObject({
      status: 409,
      code: "authorization_inactive",
    });
    const second = await saveCard(TEST_CARDS.secondCard);
    // The card's clock past its expiry (12/34): 400 days at a time.
    let card = await paygate.advanceCardClock(second.authorizationCode, 400 * 86_400);
    while (card.status === "active")
      card = await paygate.advanceCardClock(second.authorizationCode, 400 * 86_400);
    expect(card.status).toBe("expired");
    await expect(paygate.chargeAuthorization(second.authorizationCode)).rejects.toMatchObject({
      code: "authorization_inactive",
    });
  });
});

test.describe("refunds", () => {
  test("a refund processed: refund.processed sent, verify shows the amount refunded", async ({
    paygate,
    checkout,
  }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    await checkout.payByCard(TEST_CARDS.success);
    await checkout.expectResult("success");
    const refund = await paygate.refund({ reference: session.reference, amount: "2000.00" });
    expect(refund.status).toBe("pending");
    expect((await paygate.settleRefund(refund.id, "processed")).status).toBe("processed");
    const event = await paygate.waitForEvent("refund.processed", session.reference);
    expect(event.payload.data).toMatchObject({ id: refund.id, amount: "2000.00", status: "processed" });
    expect((await paygate.verify(session.reference)).amountRefunded).toBe("2000.00");
  });

  test("a refund failed: refund.failed sent, the money can be refunded again", async ({
    paygate,
    checkout,
  }) => {
    const session = await paygate.initialize();
    await checkout.open(session);
    await checkout.payByCard(TEST_CARDS.success);
    await checkout.expectResult("success");
    const refund = await paygate.refund({ reference: session.reference });
    expect((await paygate.settleRefund(refund.id, "failed")).status).toBe("failed");
    await paygate.waitForEvent("refund.failed", session.reference);
    expect((await paygate.verify(session.reference)).amountRefunded).toBe("0.00");
    const again = await paygate.refund({ reference: session.reference });
    expect(again.amount).toBe(refund.amount);
  });
});

test.describe("webhooks", () => {
  // A test key cannot set a webhook endpoint (that takes the console's session): the test signs up a merchant
  // of its own, as QA can on staging. The retry comes after WEBHOOK_RETRY_SCHEDULE's first delay, which must be
  // 1 s on the deployment for the 2 s budget (npm run qa:examples sets it; the default is 5 s).
  test("an endpoint that fails is retried: the event's attempts show the 500, then the 200", async ({
    paygate,
  }) => {
    const receiver = await startWebhookReceiver({ replies: [500, 200] });
    try {
      const shop = await paygate.signUp();
      const endpoint = await shop.paygate.setWebhook(shop.accessToken, receiver.url);
      // Check every delivery's signature, as your server must (docs/guides/verify-webhooks.md).
      receiver.verifyWith(endpoint.secret);
      const session = await shop.paygate.initialize();
      // The quickest event: the checkout's end, at once.
      await shop.paygate.advanceClock(session.reference, 2 * 24 * 3600);
      const event = await shop.paygate.waitForDelivery("checkout.completed", session.reference);
      expect(event.attempts.map((a) => [a.status, a.responseStatus])).toEqual([
        ["failed", 500],
        ["succeeded", 200],
      ]);
      // Both deliveries carry the same webhook-id: the receiver deduplicates on it.
      expect(receiver.requests.map((r) => r.headers["webhook-id"])).toEqual([event.id, event.id]);
      expect(receiver.requests.map((r) => r.verified)).toEqual([true, true]);
    } finally {
      await receiver.close();
    }
  });
});

test.describe("expiry and cancel", () => {
  test("expiry: the clock passes the checkout's end; abandoned, checkout.completed sent", async ({
    paygate,
    checkout,
  }) => {
    const session = await paygate.initialize({ callbackUrl: CALLBACK });
    const moved = await paygate.advanceClock(session.reference, 2 * 24 * 3600);
    expect(moved.status).toBe("abandoned");
    const event = await paygate.waitForEvent("checkout.completed", session.reference);
    expect(event.payload).toMatchObject({ data: { status: "abandoned" } });
    // The link is no longer valid for the customer.
    const res = await checkout.page.goto(session.checkoutUrl);
    expect(res?.status()).toBe(404);
  });

  test("cancel: the customer cancels; back at callbackUrl with status abandoned", async ({
    paygate,
    checkout,
  }) => {
    const session = await paygate.initialize({ callbackUrl: CALLBACK });
    await checkout.open(session);
    await checkout.cancel();
    await checkout.expectResult("abandoned");
    await checkout.expectReturn(CALLBACK, "abandoned");
    await paygate.waitForEvent("checkout.completed", session.reference);
    expect((await paygate.verify(session.reference)).status).toBe("abandoned");
  });
});
