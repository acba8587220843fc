import { amountDifference, CHANNEL_NAMES, formatMoney, isZeroAmount } from "@/lib/i18n/format";

/**
 * The receipt emails: plain, accessible HTML (one table of label and value, real headings, no images, no
 * layout tables, the language set) and the same words as text. They carry the reference and the amounts;
 * never card data: a card is named by its scheme only ("Visa card"), no digits of its number.
 */
export type ReceiptFacts = {
  kind: "customer" | "merchant";
  merchantName: string;
  reference: string;
  currency: string;
  /** The price. */
  amount: string;
  /** What the customer paid (amount + the customer's fee). */
  total: string;
  channel: string | null;
  /** "Visa card", "Access Bank": how it was paid, without card digits. */
  paidWith: string | null;
  paidAt: Date;
  description: string | null;
  customerEmail: string | null;
  customerName: string | null;
  /** The merchant's settlement for this payment (merchant copy only). */
  amountSettled: string | null;
  testMode: boolean;
};

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** "24 November 2026, 14:30 UTC": the time zone said, since the reader's is unknown. */
export function receiptTime(at: Date): string {
  return `${new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(at)} UTC`;
}

export function renderReceipt(f: ReceiptFacts): { subject: string; text: string; html: string } {
  const money = (v: string) => formatMoney(v, f.currency);
  const fee = amountDifference(f.total, f.amount);
  const test = f.testMode ? "[Test] " : "";
  const subject =
    f.kind === "customer"
      ? `${test}Your receipt from ${f.merchantName}: ${money(f.total)}`
      : `${test}Payment received: ${money(f.total)} (${f.reference})`;
  const heading = f.kind === "customer" ? `Receipt from ${f.merchantName}` : "Payment received";
  const lead =
    f.kind === "customer"
      ? `You paid ${money(f.total)} to ${f.merchantName}.`
      : `${f.customerName ?? f.customerEmail ?? "A customer"} paid ${money(f.total)}.`;
  const rows: Array<[string, string]> = [["Reference", f.reference]];
  if (f.description) rows.push(["For", f.description]);
  if (!isZeroAmount(fee)) {
    rows.push(["Amount", money(f.amount)]);
    rows.push(["Fee", money(fee)]);
  }
  rows.push(["Total paid", money(f.total)]);
  if (f.kind === "merchant" && f.amountSettled) rows.push(["You receive", money(f.amountSettled)]);
  const way = f.paidWith ?? (f.channel ? (CHANNEL_NAMES[f.channel] ?? f.channel) : null);
  if (way) rows.push(["Paid with", way]);
  rows.push(["Date", receiptTime(f.paidAt)]);
  if (f.kind === "merchant" && f.customerEmail) rows.push(["Customer", f.customerEmail]);
  const closing =
    f.kind === "customer"
      ? `Keep this email for your records. Questions about this payment: contact ${f.merchantName} and quote the reference.`
      : "This is your copy of the receipt sent to the customer.";
  const testLine = f.testMode ? "Test mode: no real money moved." : null;

  const width = Math.max(...rows.map(([label]) => label.length));
  const text = [
    heading,
    "",
    lead,
    "",
    ...rows.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value}`),
    "",
    closing,
    ...(testLine ? ["", testLine] : []),
    "",
    "Secured by Paygate",
    "",
  ].join("\n");

  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:24px;background:#f8fafc;color:#0f172a;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;font-size:16px;line-height:1.5">
<main style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<h1 style="margin:0 0 8px;font-size:22px">${escapeHtml(heading)}</h1>
<p style="margin:0 0 16px">${escapeHtml(lead)}</p>
<table style="width:100%;border-collapse:collapse">
<caption style="text-align:left;font-weight:600;padding-bottom:8px">Payment details</caption>
<tbody>
${rows
  .map(
    ([label, value]) =>
      `<tr><th scope="row" style="text-align:left;font-weight:normal;color:#475569;padding:6px 12px 6px 0;border-top:1px solid #e2e8f0;vertical-align:top">${escapeHtml(label)}</th><td style="padding:6px 0;border-top:1px solid #e2e8f0;word-break:break-all">${escapeHtml(value)}</td></tr>`,
  )
  .join("\n")}
</tbody>
</table>
<p style="margin:16px 0 0">${escapeHtml(closing)}</p>
${testLine ? `<p style="margin:8px 0 0;color:#92400e">${escapeHtml(testLine)}</p>` : ""}
<p style="margin:16px 0 0;font-size:14px;color:#475569">Secured by Paygate</p>
</main>
</body>
</html>
`;
  return { subject, text, html };
}
