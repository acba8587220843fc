import type { APIRequestContext, Browser, Page } from "@playwright/test";
import pg from "pg";
import { type ServerProcess, startServer } from "../../scripts/lib/server-process";
import {
  checkedRequest,
  expect,
  expectAccessible,
  expectNoHorizontalScroll,
  fillCard,
  LAYOUTS,
  type Merchant,
  panel,
  signUp,
  test,
} from "../fixtures";
import { MAIN_BASE_URL } from "../servers";

/**
 * Customers who come back (docs/customers.md), in the browser: the customer saves cards on the hosted checkout
 * (the box ticked, or a payment whose terms save it), the merchant's server charges them with the customer
 * away (one succeeds, one is declined by its test card), and a third charge the bank asks an OTP for is
 * finished by the customer on the hosted page, which shows the saved card and nothing to type but the answer.
 * On the main server (SQLite), and on a server of this file's own on a PostgreSQL database when
 * TEST_DATABASE_URL is set; with and without JavaScript; at a phone's width.
 */
const PHONE = LAYOUTS[0].use;

type Target = { name: string; baseURL: string };
const targets: Target[] = [{ name: "sqlite", baseURL: MAIN_BASE_URL }];
const adminUrl = process.env.TEST_DATABASE_URL;
let pgServer: ServerProcess | undefined;
let pgName: string | undefined;

async function admin(sqlText: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(sqlText).finally(() => client.end());
}

test.beforeAll(async () => {
  if (!adminUrl) return;
  test.setTimeout(120_000);
  // One server on PostgreSQL for every test of this file (the name's prefix is the HTTP suites', whose set-up
  // drops such databases left by killed runs).
  pgName = `paygate_test_${Date.now()}_${process.pid}_e2e_saved`;
  await admin(`CREATE DATABASE ${pgName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${pgName}`;
  pgServer = await startServer({
    name: "e2e-saved-cards-pg",
    env: {
      DATABASE_URL: url.toString(),
      APP_SECRET: "e2e-saved-cards-secret-0123456789abcdefghijklmnopqrstuvwxyz",
      SEED_DEMO: "0",
      WEB_CONCURRENCY: "1",
      LOG_LEVEL: "warn",
      RATE_LIMIT_SIGNUP_BURST: "1000",
      RATE_LIMIT_SIGNUP_PER_HOUR: "1000",
    },
  });
  targets.push({ name: "postgres", baseURL: pgServer.url });
});

test.afterAll(async () => {
  await pgServer?.stop();
  if (pgName) await admin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
});

const CARDS = {
  success: "4242 4242 4242 4242",
  declinesLater: "4000 0000 0000 0341",
  otpLater: "4000 0027 6000 3184",
} as const;

async function api(
  playwright: { request: { newContext: (o: { baseURL: string }) => Promise<APIRequestContext> } },
  baseURL: string,
) {
  return checkedRequest(await playwright.request.newContext({ baseURL }));
}

async function startSaving(
  request: APIRequestContext,
  merchant: Merchant,
  email: string,
  saveCard: "optional" | "required",
) {
  const res = await request.post("/v1/payment/initialize", {
    data: { amount: "1500.00", email, saveCard },
    headers: { "x-api-key": merchant.secretKey },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data as { reference: string; checkoutUrl: string; channels: string[] };
}

async function chargeSaved(request: APIRequestContext, merchant: Merchant, authorizationCode: string) {
  const res = await request.post("/v1/payment/charge-authorization", {
    data: { authorizationCode, amount: "2500.00", description: "Monthly box" },
    headers: { "x-api-key": merchant.secretKey },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data as {
    reference: string;
    status: string;
    reason?: string;
    checkoutUrl?: string;
    authorization: { authorizationCode: string; last4: string };
  };
}

async function verified(request: APIRequestContext, merchant: Merchant, reference: string) {
  const res = await request.get(`/v1/payment/verify/${reference}`, {
    headers: { "x-api-key": merchant.secretKey },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).data as {
    status: string;
    customer: { code: string | null };
    authorization: { authorizationCode: string; last4: string } | null;
  };
}

/** Pay a checkout that saves the card, ticking the box when it is optional. */
async function payAndSave(
  page: Page,
  checkoutUrl: string,
  merchantName: string,
  number: string,
  tick: boolean,
) {
  await page.goto(checkoutUrl);
  await fillCard(page, { number });
  if (tick) {
    const box = panel(page).getByRole("checkbox", {
      name: `Save this card for future payments to ${merchantName}`,
    });
    await expect(box).not.toBeChecked();
    await box.check();
  }
  await panel(page)
    .getByRole("button", { name: /^Pay NGN/ })
    .click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
}

async function doneWhen(
  browser: Browser,
  request: APIRequestContext,
  baseURL: string,
  javaScriptEnabled: boolean,
) {
  const merchant = await signUp(request, "Monthly Box Co");
  const email = `saver-${Date.now()}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
  const context = await browser.newContext({ ...PHONE, baseURL, javaScriptEnabled });
  const page = await context.newPage();

  // 1. The customer saves three cards on the checkout: the box ticked twice, once by the payment's terms.
  const first = await startSaving(request, merchant, email, "optional");
  await page.goto(first.checkoutUrl);
  await expect(
    panel(page).getByRole("checkbox", { name: "Save this card for future payments to Monthly Box Co" }),
  ).toBeVisible();
  await expect(panel(page).getByText("can then charge it without asking for your card again")).toBeVisible();
  if (javaScriptEnabled) {
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, "card form with the box to save the card");
  }
  await payAndSave(page, first.checkoutUrl, merchant.businessName, CARDS.success, true);

  const second = await startSaving(request, merchant, email, "required");
  expect(second.channels).toEqual(["card"]);
  await page.goto(second.checkoutUrl);
  await expect(
    panel(page).getByText("This card will be saved, and Monthly Box Co will charge it later"),
  ).toBeVisible();
  await expect(panel(page).getByRole("checkbox")).toHaveCount(0);
  if (javaScriptEnabled) await expectAccessible(page, "card form of a payment that saves the card");
  await payAndSave(page, second.checkoutUrl, merchant.businessName, CARDS.declinesLater, false);

  const third = await startSaving(request, merchant, email, "optional");
  await payAndSave(page, third.checkoutUrl, merchant.businessName, CARDS.otpLater, true);

  const codes = await Promise.all(
    [first, second, third].map(async (s) => (await verified(request, merchant, s.reference)).authorization),
  );
  expect(codes.map((c) => c?.last4)).toEqual(["4242", "0341", "3184"]);
  const [good, declining, otp] = codes.map((c) => c?.authorizationCode as string);

  // 2. The merchant charges them with the customer away: one success, one declined by its test card.
  const paid = await chargeSaved(request, merchant, good as string);
  expect(paid.status).toBe("success");
  expect((await verified(request, merchant, paid.reference)).status).toBe("success");
  const declined = await chargeSaved(request, merchant, declining as string);
  expect(declined).toMatchObject({ status: "failed", reason: "card_declined" });
  expect((await verified(request, merchant, declined.reference)).status).toBe("failed");

  // 3. The bank asks for an OTP: the customer finishes it on the hosted page, the saved card shown.
  const asked = await chargeSaved(request, merchant, otp as string);
  expect(asked.status).toBe("requires_action");
  expect(asked.checkoutUrl).toBeTruthy();
  await page.goto(asked.checkoutUrl as string);
  await expect(page.getByText("Your saved card", { exact: true })).toBeVisible();
  await expect(page.getByText("Visa ending in 3184")).toBeVisible();
  await expect(page.getByText("Monthly Box Co is charging your saved card")).toBeVisible();
  // Nothing to type but the answer: no card fields, no other card to switch to.
  await expect(page.getByLabel("Card number")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Use a different card" })).toHaveCount(0);
  if (javaScriptEnabled) {
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, "a saved card's charge waiting for the OTP");
  }
  await page.getByLabel("One-time password").fill("123456");
  await page.getByRole("button", { name: /^Confirm payment of NGN/ }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  const finished = await verified(request, merchant, asked.reference);
  expect(finished).toMatchObject({ status: "success", authorization: { authorizationCode: otp } });
  await context.close();
  return { merchant, email };
}

for (const name of ["sqlite", "postgres"]) {
  test.describe(`saved cards on ${name}`, () => {
    test("save on the checkout, charge twice with the customer away, finish an OTP charge on the hosted page", async ({
      browser,
      playwright,
    }) => {
      const target = targets.find((t) => t.name === name);
      test.skip(!target, "needs TEST_DATABASE_URL (a PostgreSQL server)");
      test.setTimeout(120_000);
      const request = await api(playwright, (target as Target).baseURL);
      await doneWhen(browser, request, (target as Target).baseURL, true);
      await request.dispose();
    });

    test("the same without JavaScript: the box and the OTP post themselves", async ({
      browser,
      playwright,
    }) => {
      const target = targets.find((t) => t.name === name);
      test.skip(!target, "needs TEST_DATABASE_URL (a PostgreSQL server)");
      test.setTimeout(120_000);
      const request = await api(playwright, (target as Target).baseURL);
      await doneWhen(browser, request, (target as Target).baseURL, false);
      await request.dispose();
    });
  });
}

test("the box and the saved card's page in every language", async ({ page, request }) => {
  const merchant = await signUp(request, "Ìsọ̀ Ayọ̀");
  const words = {
    fr: "Enregistrer cette carte pour de futurs paiements à Ìsọ̀ Ayọ̀",
    yo: "Fi káàdì yìí pamọ́ fún àwọn ìsanwó mìíràn sí Ìsọ̀ Ayọ̀",
    ha: "Ajiye wannan katin don biyan Ìsọ̀ Ayọ̀ nan gaba",
    ig: "Chekwaa kaadị a maka ụgwọ ndị ọzọ ị ga-akwụ Ìsọ̀ Ayọ̀",
    pcm: "Keep this card for future payment to Ìsọ̀ Ayọ̀",
  };
  for (const [locale, label] of Object.entries(words)) {
    const res = await request.post("/v1/payment/initialize", {
      data: { amount: "100.00", email: `lang-${locale}@example.com`, saveCard: "optional", locale },
      headers: { "x-api-key": merchant.secretKey },
    });
    const { checkoutUrl } = (await res.json()).data;
    await page.goto(checkoutUrl);
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    await expect(panel(page).getByRole("checkbox", { name: label })).toBeVisible();
  }
});
