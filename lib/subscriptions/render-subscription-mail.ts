/**
 * The emails to a subscription's customer: plain, accessible HTML and the same words as text, with the link
 * to what they can do (pay with another card or manage the subscription on its own page; finish a charge the
 * bank asks them to confirm). Never card digits.
 */
export type SubscriptionMailFacts = {
  kind: "payment_failed" | "action_required" | "cancelled";
  merchantName: string;
  planName: string;
  /** "NGN 5,000.00", the invoice's amount; null without one. */
  amount: string | null;
  manageUrl: string;
  /** The hosted page where the customer confirms the charge (an OTP), for `action_required`. */
  finishUrl: string | null;
  testMode: boolean;
};

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

export function renderSubscriptionMail(f: SubscriptionMailFacts): {
  subject: string;
  text: string;
  html: string;
} {
  const test = f.testMode ? "[Test] " : "";
  const what = `your ${f.planName} subscription to ${f.merchantName}`;
  const amount = f.amount ? ` of ${f.amount}` : "";
  const words = {
    payment_failed: {
      subject: `${test}Your payment${amount} to ${f.merchantName} did not go through`,
      lead: `We could not charge your card for ${what}${amount}. We will try again in a few days; to keep your subscription, you can pay now with another card.`,
      action: "Pay with another card",
      url: f.manageUrl,
    },
    action_required: {
      subject: `${test}Confirm your payment${amount} to ${f.merchantName}`,
      lead: `Your bank asks you to confirm the payment${amount} for ${what}. It takes a minute on the secure payment page.`,
      action: "Confirm the payment",
      url: f.finishUrl ?? f.manageUrl,
    },
    cancelled: {
      subject: `${test}Your ${f.planName} subscription to ${f.merchantName} has ended`,
      lead: `We could not charge your card for ${what} after several tries, so it has been cancelled. Nothing more will be charged.`,
      action: "See your subscription",
      url: f.manageUrl,
    },
  }[f.kind];
  const manage = f.kind === "action_required" ? `Manage your subscription: ${f.manageUrl}` : null;
  const testLine = f.testMode ? "Test mode: no real money moved." : null;
  const text = [
    words.subject.replace(/^\[Test\] /, ""),
    "",
    words.lead,
    "",
    `${words.action}: ${words.url}`,
    ...(manage ? ["", manage] : []),
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
<title>${escapeHtml(words.subject)}</title>
</head>
<body style="margin:0;padding:24px;background:#f8fafc;color:#0f172a;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;font-size:16px;line-height:1.5">
<main style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<h1 style="margin:0 0 8px;font-size:22px">${escapeHtml(words.subject.replace(/^\[Test\] /, ""))}</h1>
<p style="margin:0 0 16px">${escapeHtml(words.lead)}</p>
<p style="margin:0 0 16px"><a href="${escapeHtml(words.url)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none">${escapeHtml(words.action)}</a></p>
${manage ? `<p style="margin:0 0 16px"><a href="${escapeHtml(f.manageUrl)}">Manage your subscription</a></p>` : ""}
${testLine ? `<p style="margin:8px 0 0;color:#92400e">${escapeHtml(testLine)}</p>` : ""}
<p style="margin:16px 0 0;font-size:14px;color:#475569">Secured by Paygate</p>
</main>
</body>
</html>
`;
  return { subject: words.subject, text, html };
}
