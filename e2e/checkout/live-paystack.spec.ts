import { randomBytes } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import {
  DOUBLE_ACCOUNTS,
  DOUBLE_CARDS,
  DOUBLE_OTP,
  DOUBLE_PIN,
} from "../../lib/rails/paystack/double/catalogue";
import {
  checkAnswer,
  chooseBank,
  expect,
  expectAccessible,
  expectNoHorizontalScroll,
  fillCard,
  LAYOUTS,
  panel,
  test,
} from "../fixtures";
import { LIVE_BASE_URL, PAYSTACK_DOUBLE_URL } from "../servers";

/**
 * Live mode against the Paystack double (playwright.config.ts: a production deployment whose PAYSTACK_BASE_URL
 * is the double). A merchant connects its Paystack key in the console (Settings → Live payments) with the
 * console switched to Live, and a live checkout pays by each channel: card with a one-time password, bank
 * transfer to Paystack's temporary account, bank payment approved in the bank's app, USSD; then a card that
 * asks for a PIN and one that sends the customer to the bank's 3-D Secure page and back. The double fails
 * the run on any request its OpenAPI document does not allow (checked after each test).
 */
test.use({ baseURL: LIVE_BASE_URL });

const PASSWORD = "correct horse battery staple";

async function double(request: APIRequestContext, path: string, data?: unknown) {
  const res = await request.post(`${PAYSTACK_DOUBLE_URL}${path}`, { data: data ?? {} });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

async function charges(request: APIRequestContext, reference: string) {
  const res = await request.get(`${PAYSTACK_DOUBLE_URL}/__double/charges`);
  const all = (await res.json()).charges as Array<{ reference: string; channel: string; amount: number }>;
  return all.filter((c) => c.reference.startsWith(`${reference.replace(/_/g, "-")}.`));
}

test.afterEach(async ({ request }) => {
  const res = await request.get(`${PAYSTACK_DOUBLE_URL}/__double/violations`);
  expect((await res.json()).violations, "requests the Paystack document does not allow").toEqual([]);
});

type LiveMerchant = { email: string; liveKey: string; token: string; paystackKey: string };

async function signUp(request: APIRequestContext): Promise<LiveMerchant> {
  const email = `live-${Date.now()}-${randomBytes(3).toString("hex")}@example.com`;
  const res = await checkAnswer(
    await request.post(`${LIVE_BASE_URL}/v1/merchants/auth/signup`, {
      data: { businessName: "Lagos Live Shop", email, password: PASSWORD },
    }),
    "POST",
  );
  expect(res.status()).toBe(201);
  const data = (await res.json()).data;
  const paystackKey = `sk_live_${randomBytes(20).toString("hex")}`;
  await double(request, "/__double/keys", { secretKey: paystackKey });
  return { email, liveKey: data.keys.live.secretKey, token: data.accessToken, paystackKey };
}

/** Sign in, switch the console to Live, connect the Paystack key in Settings → Live payments. */
async function connectInConsole(page: Page, request: APIRequestContext, m: LiveMerchant) {
  await page.goto("/dashboard/login");
  await page.getByLabel("Email address").fill(m.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await page.getByRole("button", { name: "Live" }).click();
  await expect(page.getByRole("button", { name: "Live" })).toHaveAttribute("aria-pressed", "true");
  await page.goto("/dashboard/settings");
  const section = page.getByRole("region", { name: "Live payments" });
  await expect(section.getByText(/Until you do, live payments are refused/)).toBeVisible();
  await expectAccessible(page, "live payments, not connected");
  await section.getByLabel("Paystack secret key").fill(`sk_live_${"0".repeat(40)}`);
  await section.getByRole("button", { name: "Connect Paystack" }).click();
  await expect(section.getByText(/secretKey was refused by Paystack/)).toBeVisible();
  await section.getByLabel("Paystack secret key").fill(m.paystackKey);
  await section.getByRole("button", { name: "Connect Paystack" }).click();
  await expect(section.getByText("Connected", { exact: true })).toBeVisible();
  await expect(section.getByText(`sk_live_…${m.paystackKey.slice(-4)}`)).toBeVisible();
  await expect(page.getByText(m.paystackKey)).toHaveCount(0);
  await expectNoHorizontalScroll(page);
  await expectAccessible(page, "live payments, connected");
  // The webhook address the console shows is the one to set in Paystack's dashboard: the double sends there.
  const webhookUrl = await section.locator("code", { hasText: "/v1/rails/paystack/webhook" }).textContent();
  expect(webhookUrl).toMatch(/\?connection=psc_/);
  await double(request, "/__double/keys", { secretKey: m.paystackKey, webhookUrl });
}

/** A live merchant whose Paystack key is connected through the API (the console's path is tested below). */
async function connected(request: APIRequestContext): Promise<LiveMerchant> {
  const m = await signUp(request);
  const res = await request.put(`${LIVE_BASE_URL}/v1/merchants/paystack`, {
    data: { mode: "live", secretKey: m.paystackKey },
    headers: { authorization: `Bearer ${m.token}` },
  });
  expect(res.status()).toBe(200);
  await double(request, "/__double/keys", {
    secretKey: m.paystackKey,
    webhookUrl: (await res.json()).data.webhookUrl,
  });
  return m;
}

async function initialize(request: APIRequestContext, m: LiveMerchant) {
  const res = await checkAnswer(
    await request.post(`${LIVE_BASE_URL}/v1/payment/initialize`, {
      data: { amount: "5000.00", email: "ada@example.com" },
      headers: { "x-api-key": m.liveKey },
    }),
    "POST",
  );
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data as { reference: string; checkoutUrl: string; transferTotal: string };
}

async function paid(page: Page) {
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible({ timeout: 15_000 });
}

test("a merchant connects Paystack in the console, switches to live, and a live checkout pays by each channel", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const m = await signUp(request);
  await connectInConsole(page, request, m);

  // Card, with the one-time password Paystack asks for.
  const byCard = await initialize(request, m);
  await page.goto(byCard.checkoutUrl);
  await expect(page.getByText("Test mode")).toHaveCount(0);
  await fillCard(page, { number: DOUBLE_CARDS.otp, cvv: "408" });
  // No sandbox test cards on a live page.
  await expect(page.getByText("Test cards")).toHaveCount(0);
  await panel(page)
    .getByRole("button", { name: /^Pay NGN/ })
    .click();
  await expect(page.getByRole("heading", { name: "Enter the one-time password" })).toBeFocused();
  await expectAccessible(page, "live card, OTP");
  await page.getByLabel("One-time password").fill(DOUBLE_OTP);
  await page.getByRole("button", { name: /^Confirm payment of NGN/ }).click();
  await paid(page);

  // Bank transfer to Paystack's temporary account; Paystack's webhook reports the money.
  const byTransfer = await initialize(request, m);
  await page.goto(byTransfer.checkoutUrl);
  await page.getByRole("tab", { name: "Bank transfer" }).click();
  await page.getByRole("button", { name: "Get account number" }).click();
  await expect(page.getByRole("heading", { name: /^Transfer NGN/ })).toBeVisible();
  await expect(panel(page).getByText("Test Bank")).toBeVisible();
  await expectAccessible(page, "live transfer account");
  const [transfer] = await charges(request, byTransfer.reference);
  await double(request, `/__double/charges/${transfer?.reference}/transfer`, { amount: transfer?.amount });
  await paid(page);

  // Bank payment: the customer's account at Zenith, approved in the bank's app.
  const byBank = await initialize(request, m);
  await page.goto(byBank.checkoutUrl);
  await page.getByRole("tab", { name: "Bank payment" }).click();
  await page.getByRole("combobox", { name: "Your bank" }).fill("Zenith");
  await page.getByRole("option", { name: "Zenith Bank" }).click();
  await panel(page).getByLabel("Your account number").fill(DOUBLE_ACCOUNTS.approveInApp);
  await panel(page)
    .getByRole("button", { name: /^Pay NGN/ })
    .click();
  await expect(page.getByRole("heading", { name: "Approve the payment in your banking app" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve the payment" })).toHaveCount(0);
  const [bank] = await charges(request, byBank.reference);
  await double(request, `/__double/charges/${bank?.reference}/complete`, { outcome: "success" });
  await paid(page);

  // USSD: Paystack's code for GTBank, paid when Paystack says so.
  const byUssd = await initialize(request, m);
  await page.goto(byUssd.checkoutUrl);
  await page.getByRole("tab", { name: "USSD" }).click();
  await chooseBank(page, panel(page), "Guaranty Trust Bank");
  await page.getByLabel("Phone number").fill("0803 123 4567");
  await page.getByRole("button", { name: "Get USSD code" }).click();
  await expect(page.getByRole("heading", { name: "Dial this code on your phone" })).toBeVisible();
  await expect(
    panel(page)
      .getByText(/\*737\*000\*/)
      .first(),
  ).toBeVisible();
  const [ussd] = await charges(request, byUssd.reference);
  await double(request, `/__double/charges/${ussd?.reference}/complete`, { outcome: "success" });
  await paid(page);

  for (const p of [byCard, byTransfer, byBank, byUssd]) {
    const res = await request.get(`${LIVE_BASE_URL}/v1/payment/verify/${p.reference}`, {
      headers: { "x-api-key": m.liveKey },
    });
    expect((await res.json()).data.status).toBe("success");
  }
});

for (const layout of LAYOUTS) {
  test.describe(`Paystack's extra card steps (${layout.name})`, () => {
    test.use(layout.use);

    test("a PIN, then the one-time password; the bank's 3-D Secure page and back to the checkout", async ({
      page,
      request,
    }) => {
      test.setTimeout(120_000);
      const m = await connected(request);

      const pin = await initialize(request, m);
      await page.goto(pin.checkoutUrl);
      await fillCard(page, { number: DOUBLE_CARDS.pinThenOtp });
      await panel(page)
        .getByRole("button", { name: /^Pay NGN/ })
        .click();
      await expect(page.getByRole("heading", { name: "Enter your card PIN" })).toBeFocused();
      const pinField = page.getByLabel("Card PIN");
      await expect(pinField).toHaveAttribute("type", "password");
      await page.getByRole("button", { name: /^Confirm payment of NGN/ }).click();
      await expect(page.getByText("Enter the 4 digits of your card PIN.")).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, `PIN step (${layout.name})`);
      await pinField.fill(DOUBLE_PIN);
      await page.getByRole("button", { name: /^Confirm payment of NGN/ }).click();
      await expect(page.getByRole("heading", { name: "Enter the one-time password" })).toBeFocused();
      await page.getByLabel("One-time password").fill(DOUBLE_OTP);
      await page.getByRole("button", { name: /^Confirm payment of NGN/ }).click();
      await paid(page);

      const secure = await initialize(request, m);
      await page.goto(secure.checkoutUrl);
      await fillCard(page, { number: DOUBLE_CARDS.threeDSecure });
      await panel(page)
        .getByRole("button", { name: /^Pay NGN/ })
        .click();
      await expect(page.getByRole("heading", { name: "Confirm on your bank's page" })).toBeFocused();
      await expectAccessible(page, `3-D Secure step (${layout.name})`);
      // Asked before the bank's page: not yet.
      await page.getByRole("button", { name: "I've confirmed it" }).click();
      await expect(page.getByText(/has not confirmed the payment yet/)).toBeVisible();
      // Reloaded: the same step again.
      await page.reload();
      await expect(page.getByRole("heading", { name: "Confirm on your bank's page" })).toBeVisible();
      await page.getByRole("link", { name: "Continue to your bank" }).click();
      await expect(page.getByRole("heading", { name: /Test Bank: confirm your payment/ })).toBeVisible();
      await page.getByRole("button", { name: "Authenticate" }).click();
      // Paystack's callback (/pay/return/paystack) asks where the charge stands, then shows the checkout.
      await page.waitForURL(/\/pay\/[0-9A-Za-z]+$/);
      await paid(page);
    });
  });
}

test("a bank payment whose bank asks for the account's phone number, then the one-time password", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const m = await connected(request);
  const s = await initialize(request, m);
  await page.goto(s.checkoutUrl);
  await page.getByRole("tab", { name: "Bank payment" }).click();
  await page.getByRole("combobox", { name: "Your bank" }).fill("Zenith");
  await page.getByRole("option", { name: "Zenith Bank" }).click();
  await panel(page).getByLabel("Your account number").fill(DOUBLE_ACCOUNTS.phoneThenOtp);
  await panel(page)
    .getByRole("button", { name: /^Pay NGN/ })
    .click();
  await expect(page.getByRole("heading", { name: "Enter your phone number" })).toBeVisible();
  await expect(panel(page).getByText("registered with this account")).toBeVisible();
  await expectAccessible(page, "bank payment, phone step");
  await panel(page).getByLabel("Phone number").fill("0803 123 4567");
  await panel(page)
    .getByRole("button", { name: /^Pay NGN/ })
    .click();
  await expect(page.getByRole("heading", { name: "Enter the code from your bank" })).toBeVisible();
  await panel(page).getByLabel("One-time password").fill(DOUBLE_OTP);
  await panel(page)
    .getByRole("button", { name: /^Pay NGN/ })
    .click();
  await paid(page);
});

test("saved cards through Paystack: saved on the live checkout, charged with the customer away (a success, a decline), an OTP charge finished on the hosted page", async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const m = await connected(request);
  const email = `saver-${Date.now()}@example.com`;
  const context = await browser.newContext({ ...LAYOUTS[0].use, baseURL: LIVE_BASE_URL });
  const page = await context.newPage();
  const codes: string[] = [];
  for (const number of [DOUBLE_CARDS.success, DOUBLE_CARDS.savesThenDeclines, DOUBLE_CARDS.savesThenOtp]) {
    const started = await request.post(`${LIVE_BASE_URL}/v1/payment/initialize`, {
      data: { amount: "1500.00", email, saveCard: "optional" },
      headers: { "x-api-key": m.liveKey },
    });
    const session = (await started.json()).data as { reference: string; checkoutUrl: string };
    await page.goto(session.checkoutUrl);
    await fillCard(page, { number, cvv: "408" });
    await panel(page)
      .getByRole("checkbox", { name: "Save this card for future payments to Lagos Live Shop" })
      .check();
    await panel(page)
      .getByRole("button", { name: /^Pay NGN/ })
      .click();
    await paid(page);
    const verified = await request.get(`${LIVE_BASE_URL}/v1/payment/verify/${session.reference}`, {
      headers: { "x-api-key": m.liveKey },
    });
    const { authorization } = (await verified.json()).data;
    expect(authorization).toMatchObject({ status: "active", last4: number.slice(-4) });
    codes.push(authorization.authorizationCode);
  }
  const charge = async (authorizationCode: string) => {
    const res = await checkAnswer(
      await request.post(`${LIVE_BASE_URL}/v1/payment/charge-authorization`, {
        data: { authorizationCode, amount: "2500.00" },
        headers: { "x-api-key": m.liveKey },
      }),
      "POST",
    );
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).data as {
      reference: string;
      status: string;
      reason?: string;
      checkoutUrl?: string;
    };
  };
  expect((await charge(codes[0] as string)).status).toBe("success");
  expect(await charge(codes[1] as string)).toMatchObject({ status: "failed", reason: "card_declined" });
  const asked = await charge(codes[2] as string);
  expect(asked.status).toBe("requires_action");
  await page.goto(asked.checkoutUrl as string);
  await expect(page.getByText("Visa ending in 3184")).toBeVisible();
  await expect(page.getByLabel("Card number")).toHaveCount(0);
  await expectAccessible(page, "live saved card, OTP");
  await page.getByLabel("One-time password").fill(DOUBLE_OTP);
  await page.getByRole("button", { name: /^Confirm payment of NGN/ }).click();
  await paid(page);
  const res = await request.get(`${LIVE_BASE_URL}/v1/payment/verify/${asked.reference}`, {
    headers: { "x-api-key": m.liveKey },
  });
  expect((await res.json()).data.status).toBe("success");
  await context.close();
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("a bank payment whose bank asks for the account's PIN, answered as a form the browser posts", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const m = await connected(request);
    const s = await initialize(request, m);
    await page.goto(`${s.checkoutUrl}?channel=bank_payment`);
    await chooseBank(page, panel(page), "Zenith Bank");
    await panel(page).getByLabel("Your account number").fill(DOUBLE_ACCOUNTS.pin);
    await panel(page)
      .getByRole("button", { name: /^Pay NGN/ })
      .click();
    await expect(page.getByRole("heading", { name: "Enter your account PIN" })).toBeVisible();
    const pin = panel(page).getByLabel("Account PIN");
    await expect(pin).toHaveAttribute("type", "password");
    await pin.fill(DOUBLE_PIN);
    await panel(page)
      .getByRole("button", { name: /^Pay NGN/ })
      .click();
    await paid(page);
    const res = await request.get(`${LIVE_BASE_URL}/v1/payment/verify/${s.reference}`, {
      headers: { "x-api-key": m.liveKey },
    });
    expect((await res.json()).data).toMatchObject({ status: "success", channel: "bank_payment" });
  });
});
