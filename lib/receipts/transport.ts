import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { deploymentMode, env } from "@/lib/env";
import { log } from "@/lib/log";
import { processState } from "@/lib/process-state";

/**
 * How receipts leave this server: by SMTP when SMTP_URL is set (nodemailer, one pooled connection per
 * process), else in staging as .eml files in RECEIPTS_DIR (the log says where), else not at all. Pages ask
 * `receiptsByEmail()` before telling a customer a receipt is emailed.
 */
export type ReceiptTransport = "smtp" | "file";

export function receiptTransport(): ReceiptTransport | null {
  if (env().SMTP_URL) return "smtp";
  return deploymentMode() === "test" ? "file" : null;
}

/** Whether customers get their receipt by email here (the only case where a page may say so). */
export function receiptsByEmail(): boolean {
  return receiptTransport() === "smtp";
}

export function receiptFrom(): string {
  const configured = env().RECEIPT_FROM;
  if (configured) return configured;
  const host = new URL(env().PUBLIC_BASE_URL).hostname;
  // A bare IP or "localhost" is no mail domain; the message still needs a syntactically valid address.
  const domain = host.includes(".") && !/^[\d.]+$/.test(host) ? host : "paygate.localhost";
  return `Paygate receipts <receipts@${domain}>`;
}

export type OutgoingMail = { to: string; subject: string; text: string; html: string };

const smtp = processState("receipts.smtp", () => ({ transporter: null as Transporter | null }));

function smtpTransporter(url: string): Transporter {
  smtp.transporter ??= nodemailer.createTransport(url, {
    // A mail server that hangs must not hold a receipt (or shutdown) for long: the outbox tries again.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as never);
  return smtp.transporter;
}

/** Send (or, in staging without SMTP, write) one message; throws when it could not be handed over. */
export async function sendMail(mail: OutgoingMail, name: string): Promise<{ where: string }> {
  const kind = receiptTransport();
  const message = { from: receiptFrom(), ...mail };
  if (kind === "smtp") {
    const info = await smtpTransporter(env().SMTP_URL as string).sendMail(message);
    return { where: `smtp ${String(info.messageId ?? "")}`.trim() };
  }
  if (kind === "file") {
    const built = await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail(message);
    const dir = env().RECEIPTS_DIR;
    await mkdir(dir, { recursive: true });
    const file = join(dir, `${name}.eml`);
    await writeFile(file, built.message as Buffer);
    return { where: file };
  }
  throw new Error("No way to send receipts on this server (no SMTP_URL in production).");
}

/** Close the SMTP connection (graceful shutdown, after the receipts relay has stopped). */
export function closeTransport(): void {
  if (!smtp.transporter) return;
  smtp.transporter.close();
  smtp.transporter = null;
  log.debug("receipt mailer closed", { pid: process.pid });
}
