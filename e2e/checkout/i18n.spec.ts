import type { Page } from "@playwright/test";
import { formatMoney } from "../../lib/i18n/format";
import { fmt, LOCALE_NAMES, LOCALES, type Locale } from "../../lib/i18n/locales";
import { en, type Messages } from "../../lib/i18n/messages/en";
import { fr } from "../../lib/i18n/messages/fr";
import { ha } from "../../lib/i18n/messages/ha";
import { ig } from "../../lib/i18n/messages/ig";
import { pcm } from "../../lib/i18n/messages/pcm";
import { yo } from "../../lib/i18n/messages/yo";
import { expect, expectAccessible, initialize, panel, test } from "../fixtures";
import { createLink } from "../links/link-api";

const CATALOGUES: Record<Locale, Messages> = { en, fr, yo, ha, ig, pcm };

/** Every string of a catalogue, with its key path ("checkout.card.title"). */
function flatten(value: unknown, path = ""): Array<[string, string]> {
  if (typeof value === "string") return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => flatten(v, `${path}.${i}`));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => flatten(v, path ? `${path}.${k}` : k));
  return [];
}

/**
 * The English phrases that must not appear on a page in `locale`: the catalogue's strings cut at their
 * `{placeholders}`, of two words or more, leaving out those the other catalogue also uses (brand names,
 * "USSD", and the words Pidgin shares with English).
 */
function englishPhrases(locale: Locale): string[] {
  const theirs = flatten(CATALOGUES[locale])
    .map(([, v]) => v)
    .join("\n");
  const phrases = flatten(en).flatMap(([, v]) => v.split(/\{\w+\}/));
  return [
    ...new Set(
      phrases
        .map((p) =>
          p
            .trim()
            .replace(/^[,.:;()]+|[,.:;()]+$/g, "")
            .trim(),
        )
        .filter((p) => p.split(/\s+/).length >= 2 && !theirs.includes(p)),
    ),
  ];
}

/** The page as rendered (screen-reader-only text included) holds no English phrase. */
async function expectNoEnglish(page: Page, locale: Locale, state: string) {
  if (locale === "en") return;
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point (textContent would add the RSC payload's scripts and hidden panels)
  const text = await page.evaluate(() => document.body.innerText);
  const left = englishPhrases(locale).filter((p) => text.includes(p));
  expect(left, `English left on the ${locale} page, state "${state}"`).toEqual([]);
}

for (const locale of LOCALES) {
  const t = CATALOGUES[locale];
  const c = t.checkout;
  const money = (amount: string) => formatMoney(amount, "NGN", locale);

  test(`in ${LOCALE_NAMES[locale]} (${locale}): transfer with a mismatch, then card; axe and no English left`, async ({
    page,
    request,
    merchant,
  }) => {
    // By transfer: a wrong amount first (the mismatch notice), then the right one and the receipt.
    const transfer = await initialize(request, merchant, { locale });
    await page.goto(transfer.checkoutUrl);
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    await expect(page.getByRole("heading", { name: c.chooseHowToPay })).toBeVisible();
    await expectAccessible(page, `${locale} checkout`);
    await expectNoEnglish(page, locale, "checkout");

    await page.getByRole("tab", { name: c.channels.bank_transfer, exact: true }).click();
    await panel(page).getByRole("button", { name: c.transfer.getAccount, exact: true }).click();
    await expect(
      page.getByRole("heading", { name: fmt(c.transfer.heading, { amount: money(transfer.transferTotal) }) }),
    ).toBeVisible();
    const wrong = fmt(c.sandbox.sendWrong, {
      amount: money((Number(transfer.transferTotal) / 2).toFixed(2)),
    });
    await panel(page).getByRole("button", { name: wrong }).click();
    await expect(page.getByRole("alert").filter({ hasText: c.transfer.mismatchTitle })).toBeVisible();
    await expectAccessible(page, `${locale} amount mismatch`);
    await expectNoEnglish(page, locale, "amount mismatch");

    await panel(page).getByRole("button", { name: c.sandbox.sendExact, exact: true }).click();
    await expect(page.getByRole("heading", { name: c.outcome.successTitle })).toBeVisible();
    await expect(page.getByTestId("paid-at")).not.toBeEmpty();
    await expectAccessible(page, `${locale} transfer receipt`);
    await expectNoEnglish(page, locale, "transfer receipt");

    // By card, on a checkout of its own.
    const card = await initialize(request, merchant, { locale });
    await page.goto(card.checkoutUrl);
    const pay = panel(page).getByRole("button", { name: fmt(c.pay, { total: money(card.cardTotal) }) });
    await expect(pay).toBeEnabled();
    await panel(page).getByLabel(c.card.number).fill("4242 4242 4242 4242");
    await panel(page).getByLabel(c.card.expiry).fill("12/34");
    await panel(page).getByLabel(c.card.cvv).fill("123");
    await pay.click();
    await expect(page.getByRole("heading", { name: c.outcome.successTitle })).toBeVisible();
    await expect(page.getByTestId("amount-total")).toContainText(money(card.cardTotal));
    await expectNoEnglish(page, locale, "card receipt");
  });
}

test("the language menu keeps the tab and the account shown, and the payment keeps the language", async ({
  browser,
  request,
  merchant,
}) => {
  const context = await browser.newContext({ locale: "ha-NG" });
  const page = await context.newPage();
  const session = await initialize(request, merchant);
  await page.goto(session.checkoutUrl);
  await expect(page.locator("html")).toHaveAttribute("lang", "ha");
  await page.getByRole("tab", { name: ha.checkout.channels.bank_transfer, exact: true }).click();
  await panel(page).getByRole("button", { name: ha.checkout.transfer.getAccount, exact: true }).click();
  const account = page.getByTestId("account-number");
  await expect(account).toHaveText(/^\d{3} \d{3} \d{4}$/);
  const number = await account.textContent();

  await page.getByTestId("language-menu").getByText(ha.page.language).click();
  await page.getByRole("button", { name: "Igbo", exact: true }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "ig");
  await expect(
    page.getByRole("tab", { name: ig.checkout.channels.bank_transfer, exact: true }),
  ).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { name: ig.checkout.chooseHowToPay })).toBeVisible();
  await expect(account).toHaveText(number ?? "");
  await expectNoEnglish(page, "ig", "after the switch");

  // Kept on the payment: a reload, even with another ?lang=, stays in Igbo, on the same account.
  await page.goto(`${session.checkoutUrl}?lang=fr`);
  await expect(page.locator("html")).toHaveAttribute("lang", "ig");
  await expect(
    page.getByRole("tab", { name: ig.checkout.channels.bank_transfer, exact: true }),
  ).toHaveAttribute("aria-selected", "true");
  await expect(account).toHaveText(number ?? "");
  await context.close();
});

test("the payment link page, the demo store and the not-found page speak the language too", async ({
  page,
  request,
  merchant,
}) => {
  const link = await createLink(request, merchant, { title: "Aṣọ òkè", amount: "2500.00" });
  await page.goto(`${link.paymentLinkUrl}?lang=yo`);
  await expect(page.locator("html")).toHaveAttribute("lang", "yo");
  await expectAccessible(page, "yo payment link");
  await expectNoEnglish(page, "yo", "payment link");
  await page.getByLabel(yo.link.form.email).fill("buyer@example.com");
  await page.getByRole("button", { name: yo.link.form.continue }).click();
  await page.waitForURL(/\/pay\/[0-9A-Za-z]+\?lang=yo$/);
  await expect(page.getByRole("heading", { name: yo.checkout.chooseHowToPay })).toBeVisible();

  await page.goto("/demo?lang=fr");
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expectAccessible(page, "fr demo store");
  await expectNoEnglish(page, "fr", "demo store");
  await page.getByRole("button", { name: fr.demo.continue }).click();
  await page.waitForURL(/\/pay\/[0-9A-Za-z]+$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expectNoEnglish(page, "fr", "demo checkout");

  await page.goto("/pay/not-a-real-code?lang=ig");
  await expect(page.locator("html")).toHaveAttribute("lang", "ig");
  await expect(page.getByRole("heading", { name: ig.notices.checkoutNotFoundTitle })).toBeVisible();
  await expectAccessible(page, "ig not found");
  await expectNoEnglish(page, "ig", "not found");
});
