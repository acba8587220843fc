import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { type ServerProcess, startServer } from "../../scripts/lib/server-process";
import { expect, fillCard, initialize, panel, signUp, test } from "../fixtures";

/**
 * The receipt email, end to end: a server of this test's own sends through a real SMTP server started here
 * (smtp-server); the customer pays on the hosted checkout in the browser, and the receipt arrives with the
 * amount the page showed and the payment's reference, and no card digits.
 */
type Mail = { to: string[]; raw: string };

const decoded = (raw: string) =>
  raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

test.describe("receipt email", () => {
  const mails: Mail[] = [];
  let smtp: SMTPServer;
  let app: ServerProcess;
  const dir = mkdtempSync(join(tmpdir(), "paygate-e2e-receipts-"));

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString(),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
    const port = (smtp.server.address() as AddressInfo).port;
    app = await startServer({
      name: "e2e-receipts",
      env: {
        DATABASE_URL: `file:${join(dir, "paygate.db")}`,
        APP_SECRET: "e2e-receipts-secret-0123456789abcdefghijklmnopqrstuvwxyz",
        SEED_DEMO: "0",
        WEB_CONCURRENCY: "1",
        LOG_LEVEL: "warn",
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        RECEIPT_FROM: "Paygate receipts <receipts@paygate.example>",
      },
    });
  });

  test.afterAll(async () => {
    await app?.stop();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  test("paying by card on the checkout page emails the receipt with that amount and reference", async ({
    page,
    playwright,
  }) => {
    const request = await playwright.request.newContext({ baseURL: app.url });
    const shop = await signUp(request, "Receipt Shop");
    const session = await initialize(request, shop, { amount: "5000.00", email: "ada@example.com" });
    await request.dispose();

    await page.goto(session.checkoutUrl);
    await expect(page.getByTestId("amount-total")).toHaveText("Total to pay: NGN 5,175.00");
    await fillCard(page, { number: "4242 4242 4242 4242" });
    await panel(page).getByRole("button", { name: "Pay NGN 5,175.00" }).click();
    await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
    await expect(page.getByText("Your receipt is on its way to ada@example.com.")).toBeVisible();

    await expect
      .poll(() => mails.filter((m) => m.to.includes("ada@example.com")).length, { timeout: 20_000 })
      .toBe(1);
    const mail = decoded(mails.find((m) => m.to.includes("ada@example.com"))?.raw ?? "");
    expect(mail).toMatch(/^Subject: \[Test\] Your receipt from Receipt Shop: NGN 5,175\.00/m);
    expect(mail).toContain(session.reference);
    expect(mail).toMatch(/Total paid:\s+NGN 5,175\.00/);
    expect(mail).toMatch(/Fee:\s+NGN 175\.00/);
    expect(mail).not.toContain("4242");
    // The merchant's copy, too.
    await expect.poll(() => mails.length, { timeout: 20_000 }).toBe(2);
  });
});
