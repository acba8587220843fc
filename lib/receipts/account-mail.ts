import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { randomString } from "@/lib/security/tokens";
import { sendMail } from "./transport";

/**
 * The emails of merchants' accounts (invitations, password resets, email confirmation, a signup with a taken
 * email), through the one mailer that sends receipts (lib/receipts/transport.ts: SMTP_URL, or `.eml` files
 * in staging). Their links carry a single-use token: it is in the message and nowhere else, never in a log
 * line (a failure logs the kind of message and the error, not the link).
 */
export type AccountMail = {
  to: string;
  kind: "invitation" | "password_reset" | "email_confirmation" | "signup_taken";
  subject: string;
  /** Paragraphs of plain text. */
  lines: string[];
  /** The one button: its words and the path it leads to on this service (`/dashboard/...`). */
  action?: { label: string; path: string };
};

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function accountMailUrl(path: string): string {
  return new URL(path, env().PUBLIC_BASE_URL).toString();
}

/** Send one account email; a failure is logged (without its link) and answered `false`, never thrown. */
export async function sendAccountMail(mail: AccountMail): Promise<boolean> {
  const url = mail.action ? accountMailUrl(mail.action.path) : null;
  const text = [...mail.lines, ...(url && mail.action ? [`${mail.action.label}: ${url}`] : [])].join("\n\n");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(mail.subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">
${mail.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("\n")}
${url && mail.action ? `<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#0f766e;color:#fff;padding:10px 16px;border-radius:8px;text-decoration:none">${escapeHtml(mail.action.label)}</a></p>\n<p style="color:#475569;word-break:break-all">${escapeHtml(url)}</p>` : ""}
</body></html>`;
  try {
    await sendMail(
      { to: mail.to, subject: mail.subject, text, html },
      `account-${mail.kind}-${Date.now()}-${randomString(8)}`,
    );
    return true;
  } catch (err) {
    log.warn("account email not sent", {
      kind: mail.kind,
      error: err instanceof Error ? err.message : String(err),
    });
    return false;
  }
}
