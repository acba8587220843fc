import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "../scripts/lib/server-process";
import { client, signup, targets } from "./helpers/api";
import { CARDS, card, checkout, start } from "./helpers/channels";
import { testDb } from "./helpers/db";

/**
 * Receipts by email: a server with SMTP_URL sends the customer's receipt and the merchant's copy to a real SMTP
 * server started here (smtp-server), in the background after the payment; one without SMTP_URL in staging
 * writes them as files instead. Neither holds card data.
 */
type Mail = { from: string; to: string[]; raw: string };

/** The body of a message as text: quoted-printable soft breaks and escapes undone (enough for assertions). */
function decoded(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/**
 * What a page shows: its HTML without scripts (the client components' data carries messages of states the
 * page is not in) and without tags, with whitespace collapsed and the usual entities decoded.
 */
function renderedText(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, " ")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
}

async function until<T>(what: string, probe: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("receipts", () => {
  const mails: Mail[] = [];
  let smtp: SMTPServer;
  let smtpPort = 0;
  let withSmtp: ServerProcess;
  let withoutSmtp: ServerProcess;
  const dir = mkdtempSync(join(tmpdir(), "paygate-receipts-"));

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
    smtpPort = (smtp.server.address() as AddressInfo).port;
    const common = {
      APP_SECRET: "receipts-test-secret-0123456789abcdefghijklmnopqrstuvwxyz",
      SEED_DEMO: "0",
      WEB_CONCURRENCY: "1",
      LOG_LEVEL: "info",
      CHECKOUT_EXPIRY_SWEEP_SECONDS: "0",
    };
    [withSmtp, withoutSmtp] = await Promise.all([
      startServer({
        name: "receipts-smtp",
        env: {
          ...common,
          DATABASE_URL: `file:${join(dir, "smtp.db")}`,
          SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
          RECEIPT_FROM: "Paygate receipts <receipts@paygate.example>",
          RECEIPTS_DIR: join(dir, "unused"),
        },
      }),
      startServer({
        name: "receipts-file",
        env: { ...common, DATABASE_URL: `file:${join(dir, "file.db")}`, RECEIPTS_DIR: join(dir, "receipts") },
      }),
    ]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([withSmtp?.stop(), withoutSmtp?.stop()]);
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it("a card payment sends the customer's receipt and the merchant's copy over SMTP, without card data", async () => {
    const api = client(withSmtp.url);
    const merchant = await signup(api, { businessName: "Kola Foods" });
    const session = await start(api, merchant, {
      amount: "5000",
      email: "ada@example.com",
      customerName: "Ada Obi",
      description: "Ankara tote bag",
    });
    const paid = await checkout(api, session).card(card(CARDS.success));
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.data.status).toBe("success");

    const customer = await until("the customer's receipt", () =>
      mails.find((m) => m.to.includes("ada@example.com")),
    );
    const copy = await until("the merchant's copy", () => mails.find((m) => m.to.includes(merchant.email)));
    expect(customer.from).toBe("receipts@paygate.example");

    const body = decoded(customer.raw);
    expect(body).toMatch(/^Subject: \[Test\] Your receipt from Kola Foods: NGN 5,175\.00/m);
    expect(body).toMatch(/Content-Type: text\/plain/);
    expect(body).toMatch(/Content-Type: text\/html/);
    expect(body).toContain(session.reference);
    expect(body).toContain("You paid NGN 5,175.00 to Kola Foods.");
    expect(body).toMatch(/Amount:\s+NGN 5,000\.00/);
    expect(body).toMatch(/Fee:\s+NGN 175\.00/);
    expect(body).toMatch(/Total paid:\s+NGN 5,175\.00/);
    expect(body).toMatch(/Paid with:\s+Visa card/);
    // Accessible HTML: a language, a heading, a table with row headers.
    expect(body).toContain('<html lang="en">');
    expect(body).toContain("<h1");
    expect(body).toContain('<th scope="row"');
    // No card data: not the number, not its last 4, not the CVV or expiry.
    expect(body).not.toContain("4242");
    expect(body).not.toMatch(/\b12\/\d{2}\b/);

    const copyBody = decoded(copy.raw);
    expect(copyBody).toMatch(/^Subject: \[Test\] Payment received: NGN 5,175\.00\s+\(PAY_TXN_/m);
    expect(copyBody).toContain(session.reference);
    expect(copyBody).toContain("ada@example.com");
    expect(copyBody).toMatch(/You receive:\s+NGN 5,000\.00/);
    expect(copyBody).not.toContain("4242");

    // The receipt page says the email is on its way (this server can send one).
    const receiptPage = await api.get(`/pay/${session.accessCode}`);
    expect(renderedText(receiptPage.text)).toContain("Your receipt is on its way to ada@example.com");

    // Once each: the outbox never sends a receipt twice.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(mails.filter((m) => m.to.includes("ada@example.com"))).toHaveLength(1);
  });

  it("without SMTP_URL, staging writes the receipts to RECEIPTS_DIR and no page promises an email", async () => {
    const api = client(withoutSmtp.url);
    const merchant = await signup(api);
    const session = await start(api, merchant, { amount: "2000", email: "bola@example.com" });
    const paid = await checkout(api, session).card(card(CARDS.success));
    expect(paid.body.data.status).toBe("success");
    const files = await until("the receipt files", () => {
      try {
        const names = readdirSync(join(dir, "receipts")).filter((f) => f.startsWith(session.reference));
        return names.length === 2 ? names.sort() : undefined;
      } catch {
        return undefined;
      }
    });
    expect(files).toEqual([`${session.reference}-customer.eml`, `${session.reference}-merchant.eml`]);
    const text = decoded(readFileSync(join(dir, "receipts", files[0] as string), "utf8"));
    expect(text).toContain("To: bola@example.com");
    expect(text).toContain(session.reference);
    // 2,000.00 + 1.5% card fee (30.00; the flat part waived below 2,500.00).
    expect(text).toMatch(/Total paid:\s+NGN 2,030\.00/);
    // The relay logs each receipt once it is recorded as sent, which follows its file's writing.
    await until("the receipt's log line", () =>
      withoutSmtp.output().includes("receipt sent") ? true : undefined,
    );
    // Written to a file is not emailed: the receipt page makes no such claim.
    const receiptPage = await api.get(`/pay/${session.accessCode}`);
    expect(receiptPage.status).toBe(200);
    expect(renderedText(receiptPage.text)).toContain("Payment successful");
    expect(renderedText(receiptPage.text)).not.toMatch(/receipt is on its way/i);

    const link = await api.post(
      "/v1/merchants/payment-links",
      { title: "Donation", minAmount: "100" },
      { authorization: `Bearer ${merchant.accessToken}` },
    );
    expect(link.status, link.text).toBe(201);
    const page = await api.get(`/l/${link.body.data.slug}`);
    expect(page.status).toBe(200);
    expect(renderedText(page.text)).not.toMatch(/receipt here/i);
  });

  it("with SMTP_URL the link page says the receipt is emailed", async () => {
    const api = client(withSmtp.url);
    const merchant = await signup(api);
    const link = await api.post(
      "/v1/merchants/payment-links",
      { title: "Donation", minAmount: "100" },
      { authorization: `Bearer ${merchant.accessToken}` },
    );
    const page = await api.get(`/l/${link.body.data.slug}`);
    expect(renderedText(page.text)).toContain("We email your receipt here.");
  });

  it("stops its mailer on shutdown and exits cleanly", async () => {
    await withSmtp.stop();
    expect((await withSmtp.exited).code).toBe(0);
  });
});

describe.each(targets)("receipts outbox ($name)", (target) => {
  it("a successful payment leaves one sent receipt per kind, claimed by one relay of the several processes", async () => {
    const api = client(target.url);
    const merchant = await signup(api);
    const session = await start(api, merchant, { amount: "5000", email: "cara@example.com" });
    const paid = await checkout(api, session).card(card(CARDS.success));
    expect(paid.body.data.status).toBe("success");
    const db = testDb(target);
    const end = Date.now() + 20_000;
    let sent: Array<{ kind: string; recipient: string; status: string; attempts: number }> = [];
    while (Date.now() < end) {
      sent = await db
        .selectFrom("receipts")
        .innerJoin("transactions", "transactions.id", "receipts.transaction_id")
        .select(["receipts.kind", "receipts.recipient", "receipts.status", "receipts.attempts"])
        .where("transactions.reference", "=", session.reference)
        .orderBy("receipts.kind")
        .execute();
      if (sent.length === 2 && sent.every((r) => r.status === "sent")) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(sent).toEqual([
      { kind: "customer", recipient: "cara@example.com", status: "sent", attempts: 1 },
      { kind: "merchant", recipient: merchant.email, status: "sent", attempts: 1 },
    ]);
  });
});
