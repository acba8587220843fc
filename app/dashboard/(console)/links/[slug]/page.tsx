import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import QRCode from "qrcode";
import { CopyButton } from "@/components/ui/copy-button";
import { requireMerchant } from "@/lib/console/session";
import { isAppError } from "@/lib/core/errors";
import { formatMoney } from "@/lib/i18n/format";
import { getPaymentLink } from "@/lib/links/get-payment-link";
import { SlugParams } from "@/lib/links/schemas";
import { PageHeader, Section, when } from "../../../_components/bits";
import { LinkActions } from "../../../_components/link-actions";
import { LinkEdit } from "../../../_components/link-edit";
import { linkClass } from "../../../_components/styles";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Payment link" };

export default async function LinkPage({ params }: { params: Promise<{ slug: string }> }) {
  const member = await requireMerchant();
  const { merchantId, mode } = member;
  const { slug } = await params;
  if (!SlugParams.safeParse({ slug }).success) notFound();
  let link: Awaited<ReturnType<typeof getPaymentLink>>;
  try {
    link = await getPaymentLink({ merchantId, mode, slug });
  } catch (err) {
    if (isAppError(err) && err.code === "payment_link_not_found") notFound();
    throw err;
  }
  // A QR code of the link for a shop counter: a PNG made on the server, no script needed to show it.
  const qr = await QRCode.toDataURL(link.paymentLinkUrl, {
    margin: 2,
    width: 240,
    errorCorrectionLevel: "M",
  });
  const rows: [string, string][] = [
    ["Amount", link.amount ? formatMoney(link.amount, link.currency) : `Customer chooses (${link.currency})`],
    ...(link.minAmount ? [["Minimum", formatMoney(link.minAmount, link.currency)] as [string, string]] : []),
    ...(link.maxAmount ? [["Maximum", formatMoney(link.maxAmount, link.currency)] as [string, string]] : []),
    ["Channels", link.channels.map((c) => c.replaceAll("_", " ")).join(", ")],
    ["Fees paid by", link.feeBearer === "merchant" ? "You" : "The customer"],
    ["Payments", `${link.usageCount}${link.usageLimit !== null ? ` of ${link.usageLimit}` : ""}`],
    ["Expires", link.expiresAt ? when(link.expiresAt) : "Never"],
    ["After paying", link.redirectUrl ?? "Paygate's receipt"],
    ["Created", when(link.createdAt)],
  ];
  return (
    <>
      <p className="text-sm">
        <Link href="/dashboard/links" className={linkClass}>
          Back to payment links
        </Link>
      </p>
      <PageHeader title="Payment link" mode={mode} />
      <Section title={link.title} id="link">
        {link.description && <p className="mb-3 text-sm text-slate-700">{link.description}</p>}
        <p className="text-sm font-medium text-slate-800">{link.active ? "Active" : "Deactivated"}</p>
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <code
            className="min-w-0 break-all rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm"
            data-link-url
          >
            {link.paymentLinkUrl}
          </code>
          <CopyButton value={link.paymentLinkUrl} what="payment link" />
          <a href={link.paymentLinkUrl} target="_blank" rel="noopener noreferrer" className={linkClass}>
            Open<span className="sr-only"> the payment page in a new tab</span>
          </a>
        </div>
        <dl className="mt-4 divide-y divide-slate-100">
          {rows.map(([k, v]) => (
            <div key={k} className="grid grid-cols-[9rem_1fr] gap-2 py-1.5">
              <dt className="text-sm font-medium text-slate-600">{k}</dt>
              <dd className="min-w-0 break-words text-sm">{v}</dd>
            </div>
          ))}
        </dl>
        {link.metadata.fields.length > 0 && (
          <>
            <h3 className="mt-4 text-sm font-semibold">Questions asked</h3>
            <ul className="mt-1 list-disc pl-5 text-sm">
              {link.metadata.fields.map((f) => (
                <li key={f.name}>
                  {f.label} ({f.type}
                  {f.required ? ", required" : ""})
                </li>
              ))}
            </ul>
          </>
        )}
        {member.can("links.write") && (
          <div className="mt-4">
            <LinkActions slug={link.slug} active={link.active} />
          </div>
        )}
      </Section>
      {member.can("links.write") && (
        <Section title="Edit" id="edit">
          <p className="mb-3 text-sm text-slate-700">
            The amount, currency, channels, fees and questions are fixed once a link is made; make a new link
            to change them.
          </p>
          <LinkEdit
            link={{
              slug: link.slug,
              title: link.title,
              description: link.description,
              redirectUrl: link.redirectUrl,
              expiresAt: link.expiresAt,
              usageLimit: link.usageLimit,
            }}
          />
        </Section>
      )}
      <Section title="QR code" id="qr">
        {/* biome-ignore lint/performance/noImgElement: a data URL made on the server; nothing to optimise */}
        <img src={qr} width={240} height={240} alt={`QR code of the payment link ${link.paymentLinkUrl}`} />
        <p className="mt-2 text-sm text-slate-700">Print it for your counter: customers scan it to pay.</p>
        <a href={qr} download={`${link.slug}-qr.png`} className={`${linkClass} mt-2 inline-block text-sm`}>
          Download the QR code
        </a>
      </Section>
    </>
  );
}
