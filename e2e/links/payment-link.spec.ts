import {
  expect,
  expectAccessible,
  expectNoHorizontalScroll,
  fillCard,
  LAYOUTS,
  panel,
  test,
} from "../fixtures";
import {
  createLink,
  getLink,
  type LinkField,
  MERCHANT_RETURN_PATH,
  payRequests,
  serveMerchantReturn,
  updateLink,
  verifyPayment,
} from "./link-api";

/**
 * Payment links end to end (docs/api.md "Payment links", docs/checkout.md): a merchant creates a link with the
 * API, a customer opens its URL, answers the prompts, pays on the hosted checkout and lands on the link's
 * redirectUrl; the merchant's server verify reports the payment with the answers in its metadata.
 */

const CHECKOUT = /\/pay\/[0-9A-Za-z]+$/;

const TICKET_FIELDS: LinkField[] = [
  { name: "attendee", label: "Attendee name", type: "text", required: true },
  { name: "size", label: "T-shirt size", type: "select", required: true, options: ["S", "M", "L"] },
  { name: "phone", label: "Phone number", type: "phone" },
  { name: "company", label: "Company", type: "text" },
];

const FEES_FIELDS: LinkField[] = [
  { name: "studentId", label: "Student ID", type: "text", required: true },
  { name: "term", label: "Term", type: "select", required: true, options: ["First", "Second", "Third"] },
];

for (const layout of LAYOUTS) {
  test.describe(`payment link (${layout.name})`, () => {
    test.use(layout.use);

    test("a fixed-amount link with prompts is paid by card and returns to its redirectUrl", async ({
      page,
      request,
      merchant,
      baseURL,
    }) => {
      const link = await createLink(request, merchant, {
        title: "Design workshop ticket",
        description:
          "One seat, lunch included.\nVenue map: https://example.com/events/2025/design-workshop-lagos-edition/venue-map",
        amount: "12500.00",
        currency: "NGN",
        redirectUrl: `${baseURL}${MERCHANT_RETURN_PATH}?event=workshop`,
        metadata: { fields: TICKET_FIELDS },
      });
      expect(link.paymentLinkUrl).toBe(`${baseURL}/l/${link.slug}`);
      expect(link.amount).toBe("12500.00");
      await serveMerchantReturn(page);

      const response = await page.goto(link.paymentLinkUrl);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1, name: "Design workshop ticket" })).toBeVisible();
      await expect(page.getByText(merchant.businessName, { exact: true })).toBeVisible();
      await expect(page.getByText(/^One seat, lunch included\.\s+Venue map: https:/)).toBeVisible();
      await expect(page.getByText("Amount: NGN 12,500.00")).toBeVisible();
      // Before checkout: what each way of paying adds (12,500.00: card 1.5% + 100.00, the others 1%).
      const fees = page.getByTestId("fee-notice");
      await expect(fees.getByRole("heading")).toHaveText("A fee may be added, depending on how you pay");
      await expect(fees.getByRole("listitem")).toHaveText([
        "CardNGN 12,787.50 (NGN 287.50 fee)",
        "Bank transfer, bank payment or USSDNGN 12,625.00 (NGN 125.00 fee)",
      ]);
      // No SMTP on this server: the page does not promise an emailed receipt.
      await expect(page.getByText(/receipt/i)).toHaveCount(0);
      await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
      // A fixed amount is not asked for.
      await expect(page.getByLabel(/^Amount/)).toHaveCount(0);
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "link start page (fixed amount)");

      await page.getByLabel("Attendee name").fill("Chidi Okafor");
      await page.getByLabel("T-shirt size").selectOption("M");
      await page.getByLabel("Phone number").fill("+234 803 555 0142");
      // "Company" is optional and left empty.
      await expect(page.getByLabel("Company")).toHaveAccessibleName("Company (optional)");
      await page.getByLabel("Email address").fill("chidi@example.com");
      await page.getByLabel("Full name").fill("Chidi Okafor");
      await page.getByRole("button", { name: "Continue to payment" }).click();

      await page.waitForURL(CHECKOUT);
      await expect(page.getByRole("heading", { level: 1, name: merchant.businessName })).toBeVisible();
      await expect(page.getByText("Design workshop ticket")).toBeVisible();
      // 12,500.00 + card fee (1.5% + 100.00 = 287.50).
      await expect(page.getByRole("tab", { name: "Card", exact: true })).toHaveAttribute(
        "aria-selected",
        "true",
      );
      await fillCard(page, { number: "4242 4242 4242 4242", expiry: "12/34", cvv: "123" });
      await panel(page).getByRole("button", { name: "Pay NGN 12,787.50" }).click();
      await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();

      await page.waitForURL((url) => url.pathname === MERCHANT_RETURN_PATH);
      await expect(page.getByRole("heading", { level: 1, name: "Back at the shop" })).toBeVisible();
      const query = new URL(page.url()).searchParams;
      expect(query.get("event")).toBe("workshop"); // the merchant's own query is kept
      expect(query.get("status")).toBe("success");
      expect(query.get("amount")).toBe("12500.00");
      expect(query.get("currency")).toBe("NGN");
      const reference = query.get("reference") ?? "";
      expect(reference).toMatch(/^PAY_TXN_/);

      const paid = await verifyPayment(request, merchant, reference);
      expect(paid).toMatchObject({
        reference,
        status: "success",
        amount: "12500.00",
        total: "12787.50",
        currency: "NGN",
        channel: "card",
        customer: { email: "chidi@example.com", name: "Chidi Okafor" },
      });
      expect(paid.metadata).toEqual({
        paymentLink: { id: link.id, slug: link.slug, title: "Design workshop ticket" },
        fields: { attendee: "Chidi Okafor", size: "M", phone: "+234 803 555 0142" },
      });
      expect((await getLink(request, merchant, link.slug)).usageCount).toBe(1);
    });

    test("a customer-entered amount is paid by bank transfer and that amount is charged", async ({
      page,
      request,
      merchant,
      baseURL,
    }) => {
      const link = await createLink(request, merchant, {
        title: "School fees",
        minAmount: "1000",
        maxAmount: "50000",
        currency: "NGN",
        redirectUrl: `${baseURL}${MERCHANT_RETURN_PATH}`,
        metadata: { fields: FEES_FIELDS },
      });
      expect(link.amount).toBeNull();
      expect(link).toMatchObject({ minAmount: "1000.00", maxAmount: "50000.00" });
      await serveMerchantReturn(page);

      await page.goto(link.paymentLinkUrl);
      await expect(page.getByRole("heading", { level: 1, name: "School fees" })).toBeVisible();
      const amount = page.getByLabel("Amount (NGN)");
      await expect(amount).toHaveAccessibleDescription("Enter at least NGN 1,000.00, at most NGN 50,000.00.");
      await expectNoHorizontalScroll(page);

      await amount.fill("7500.50");
      await page.getByLabel("Student ID").fill("STU-2291");
      await page.getByLabel("Term").selectOption("Second");
      await page.getByLabel("Email address").fill("parent@example.com");
      await page.getByRole("button", { name: "Continue to payment" }).click();

      await page.waitForURL(CHECKOUT);
      await page.getByRole("tab", { name: "Bank transfer" }).click();
      await expect(page.getByRole("tab", { name: "Bank transfer" })).toHaveAttribute("aria-selected", "true");
      await panel(page).getByRole("button", { name: "Get account number" }).click();
      // 7,500.50 + transfer fee (1% of 7,500.50 = 75.005, rounded half-up to 75.01).
      await expect(page.getByRole("heading", { name: "Transfer NGN 7,575.51" })).toBeVisible();
      await expect(page.getByTestId("account-number")).toHaveText(/^\d{3} \d{3} \d{4}$/);
      await panel(page).getByRole("button", { name: "Send the exact amount" }).click();
      await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();

      await page.waitForURL((url) => url.pathname === MERCHANT_RETURN_PATH);
      const query = new URL(page.url()).searchParams;
      expect(query.get("status")).toBe("success");
      expect(query.get("amount")).toBe("7500.50");
      expect(query.get("currency")).toBe("NGN");
      const reference = query.get("reference") ?? "";
      expect(reference).toMatch(/^PAY_TXN_/);

      const paid = await verifyPayment(request, merchant, reference);
      expect(paid).toMatchObject({
        status: "success",
        amount: "7500.50",
        total: "7575.51",
        fees: "75.01",
        currency: "NGN",
        channel: "bank_transfer",
        customer: { email: "parent@example.com", name: null },
      });
      expect(paid.metadata).toEqual({
        paymentLink: { id: link.id, slug: link.slug, title: "School fees" },
        fields: { studentId: "STU-2291", term: "Second" },
      });
    });
  });
}

// Links are shared in chats and texts: the start page's own states run at phone size.
test.describe("payment link start page (phone)", () => {
  test.use(LAYOUTS[0].use);

  test("missing answers show inline errors and nothing is sent", async ({ page, request, merchant }) => {
    const link = await createLink(request, merchant, {
      title: "Club membership",
      minAmount: "1000",
      maxAmount: "50000",
      metadata: { fields: FEES_FIELDS },
    });
    const sent = payRequests(page, link.slug);
    await page.goto(link.paymentLinkUrl);
    await expectAccessible(page, "link start page (empty)");

    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByText("Enter the amount to pay.")).toBeVisible();
    await expect(page.getByText("Student ID is required.")).toBeVisible();
    await expect(page.getByText("Term is required.")).toBeVisible();
    await expect(page.getByText("Enter your email address.")).toBeVisible();
    const amount = page.getByLabel("Amount (NGN)");
    await expect(amount).toBeFocused();
    await expect(amount).toHaveAttribute("aria-invalid", "true");
    await expect(amount).toHaveAccessibleDescription(/Enter the amount to pay\./);
    await expect(page.getByLabel("Student ID")).toHaveAccessibleDescription("Student ID is required.");
    await expect(page.getByLabel("Email address")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, "link start page (inline errors)");
    await expectNoHorizontalScroll(page);

    // The fee per way of paying follows the amount as it is typed (12,000.00: card 1.5% + 100.00, others 1%).
    const fees = page.getByTestId("fee-notice");
    await expect(fees).toHaveText(
      "A fee may be added at checkout, depending on how you pay. Enter the amount to see it.",
    );
    await amount.fill("12000");
    await expect(fees.getByRole("listitem")).toHaveText([
      "CardNGN 12,280.00 (NGN 280.00 fee)",
      "Bank transfer, bank payment or USSDNGN 12,120.00 (NGN 120.00 fee)",
    ]);
    await expectAccessible(page, "link start page (fees for the typed amount)");

    // Answering some clears their errors; the rest stay, still without a request.
    await amount.fill("12,000");
    await page.getByLabel("Student ID").fill("STU-7");
    await page.getByLabel("Email address").fill("not-an-email");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByText("Enter an amount like 5000 or 5000.50.")).toBeVisible();
    await expect(page.getByText("Enter a valid email address.")).toBeVisible();
    await expect(page.getByText("Term is required.")).toBeVisible();
    await expect(page.getByText("Student ID is required.")).toHaveCount(0);
    await expect(page.getByLabel("Student ID")).toHaveAttribute("aria-invalid", "false");

    expect(new URL(page.url()).pathname).toBe(`/l/${link.slug}`);
    expect(sent).toEqual([]);
    expect((await getLink(request, merchant, link.slug)).usageCount).toBe(0);
  });

  test("an amount outside the link's range is refused inline", async ({ page, request, merchant }) => {
    const link = await createLink(request, merchant, {
      title: "Donation",
      minAmount: "1000",
      maxAmount: "50000",
    });
    const sent = payRequests(page, link.slug);
    await page.goto(link.paymentLinkUrl);
    const amount = page.getByLabel("Amount (NGN)");
    await page.getByLabel("Email address").fill("giver@example.com");

    for (const [typed, message] of [
      ["999.99", "Enter at least NGN 1,000.00."],
      ["50000.01", "Enter at most NGN 50,000.00."],
      ["0", "Enter an amount greater than zero."],
    ] as const) {
      await amount.fill(typed);
      await page.getByRole("button", { name: "Continue to payment" }).click();
      await expect(page.getByText(message, { exact: true })).toBeVisible();
      await expect(amount).toHaveAttribute("aria-invalid", "true");
      await expect(amount).toHaveAccessibleDescription(
        `Enter at least NGN 1,000.00, at most NGN 50,000.00. ${message}`,
      );
      await expect(amount).toBeFocused();
    }
    await expectAccessible(page, "link start page (amount out of range)");
    expect(new URL(page.url()).pathname).toBe(`/l/${link.slug}`);
    expect(sent).toEqual([]);
    expect((await getLink(request, merchant, link.slug)).usageCount).toBe(0);

    // The bounds themselves are accepted.
    await amount.fill("1000");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.waitForURL(CHECKOUT);
    await expect(page.getByRole("tab", { name: "Card", exact: true })).toBeVisible();
    expect(sent).toHaveLength(1);
  });

  test("an answer that breaks the link's rules is shown on its own field, in the customer's words, before anything is sent", async ({
    page,
    request,
    merchant,
  }) => {
    const link = await createLink(request, merchant, {
      title: "Callback request",
      amount: "2000",
      metadata: { fields: [{ name: "phone", label: "Phone number", type: "phone", required: true }] },
    });
    const sent = payRequests(page, link.slug);
    await page.goto(link.paymentLinkUrl);
    await page.getByLabel("Phone number").fill("call me");
    await page.getByLabel("Email address").fill("caller@example.com");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    const phone = page.getByLabel("Phone number");
    await expect(phone).toHaveAttribute("aria-invalid", "true");
    // The rule the server refuses with (lib/links/answers.ts), worded by the page; never a field key.
    await expect(phone).toHaveAccessibleDescription("Phone number must be a phone number.");
    await expect(phone).toBeFocused();
    expect(sent).toHaveLength(0);
    expect(new URL(page.url()).pathname).toBe(`/l/${link.slug}`);

    await phone.fill("+234 803 555 0199");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.waitForURL(CHECKOUT);
    expect(sent).toHaveLength(1);
  });

  test("an answer the server refuses comes back on its own field, in the page's language, without JavaScript", async ({
    browser,
    request,
    merchant,
  }) => {
    const link = await createLink(request, merchant, {
      title: "Callback request",
      amount: "2000",
      metadata: { fields: [{ name: "phone", label: "Phone number", type: "phone", required: true }] },
    });
    const context = await browser.newContext({ javaScriptEnabled: false, ...LAYOUTS[0].use });
    const page = await context.newPage();
    const sent = payRequests(page, link.slug);
    await page.goto(`${link.paymentLinkUrl}?lang=fr`);
    await page.getByLabel("Phone number").fill("call me");
    await page.getByLabel("Adresse e-mail").fill("caller@example.com");
    await page.getByRole("button", { name: "Continuer vers le paiement" }).click();
    await page.waitForURL(/[?&]problem=validation_error/);
    // The server named the field and the rule; the page words them (French here), on the field itself.
    const url = new URL(page.url());
    expect([url.searchParams.get("field"), url.searchParams.get("rule")]).toEqual([
      "fields.phone",
      "invalid_phone",
    ]);
    const phone = page.getByLabel("Phone number");
    await expect(phone).toHaveAttribute("aria-invalid", "true");
    await expect(phone).toHaveAccessibleDescription("Phone number : saisissez un numéro de téléphone.");
    expect(sent).toHaveLength(1);
    await context.close();
  });

  test("a deactivated link says it is not taking payments", async ({ page, request, merchant }) => {
    const link = await createLink(request, merchant, { title: "Summer camp deposit", amount: "15000" });
    // Opened while active, deactivated before the customer submits: the form says so.
    await page.goto(link.paymentLinkUrl);
    await page.getByLabel("Email address").fill("late@example.com");
    expect((await updateLink(request, merchant, link.slug, { active: false })).active).toBe(false);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "deactivated" })).toHaveText(
      "This payment link has been deactivated by the merchant.",
    );
    expect(new URL(page.url()).pathname).toBe(`/l/${link.slug}`);

    // Opened after: no form at all, the reason instead.
    const response = await page.goto(link.paymentLinkUrl);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: "Summer camp deposit" })).toBeVisible();
    const alert = page.getByRole("alert").filter({ hasText: "not taking payments" });
    await expect(alert).toContainText("This link is not taking payments.");
    await expect(alert).toContainText("This payment link has been deactivated by the merchant.");
    await expect(page.getByRole("button", { name: /^Pay / })).toHaveCount(0);
    await expect(page.getByLabel("Email address")).toHaveCount(0);
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, "deactivated link");

    // The API agrees: public display says inactive, pay is refused.
    const display = await request.get(`/v1/merchants/payment-links/${link.slug}/display`);
    expect((await display.json()).data.active).toBe(false);
    const pay = await request.post(`/v1/merchants/payment-links/${link.slug}/pay`, {
      data: { email: "late@example.com" },
    });
    expect(pay.status()).toBe(409);
    expect((await pay.json()).error).toBe("payment_link_unavailable");
  });

  test("an unknown slug is a 404 page", async ({ page, request }) => {
    for (const slug of ["no-such-link-zz9x", "Not_A_Slug"]) {
      const response = await page.goto(`/l/${slug}`);
      expect(response?.status(), slug).toBe(404);
      await expect(
        page.getByRole("heading", { level: 1, name: "This payment link is not valid" }),
      ).toBeVisible();
      await expect(
        page.getByText("Check the address with the business that sent it to you", { exact: false }),
      ).toBeVisible();
      await expect(page.getByRole("button")).toHaveCount(0);
    }
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, "unknown link");
    const display = await request.get("/v1/merchants/payment-links/no-such-link-zz9x/display");
    expect(display.status()).toBe(404);
    expect((await display.json()).error).toBe("payment_link_not_found");
  });
});
