import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BRAND_LABEL, type Brand } from "@/lib/checkout/card";
import { requireMerchant } from "@/lib/console/session";
import { isAppError } from "@/lib/core/errors";
import { CUSTOMER_CODE } from "@/lib/customers/codes";
import { getCustomer } from "@/lib/customers/get-customer";
import { listCardConsents } from "@/lib/customers/list-card-consents";
import { LOCALE_NAMES } from "@/lib/i18n/locales";
import { listTransactions } from "@/lib/payments/list-transactions";
import {
  Empty,
  NotAllowed,
  PageHeader,
  PaymentsTable,
  Section,
  StatusBadge,
  when,
} from "../../../_components/bits";
import { DeactivateCard } from "../../../_components/deactivate-card";
import { linkClass } from "../../../_components/styles";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Customer" };

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2 py-1.5 sm:grid-cols-[12rem_1fr]">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * One customer: who they are, the cards they saved (each with the consent they gave: the words they were
 * shown, when, from which address, on which payment; and a way to deactivate it), and their payments.
 */
export default async function CustomerPage({ params }: { params: Promise<{ code: string }> }) {
  const member = await requireMerchant();
  const { merchantId, mode } = member;
  if (!member.can("customers.read"))
    return <NotAllowed title="Customer" mode={mode} permission="customers.read" />;
  const { code } = await params;
  if (!CUSTOMER_CODE.test(code)) notFound();
  let customer: Awaited<ReturnType<typeof getCustomer>>;
  try {
    customer = await getCustomer({ merchantId, mode, code });
  } catch (err) {
    if (isAppError(err) && err.code === "customer_not_found") notFound();
    throw err;
  }
  const [consents, payments] = await Promise.all([
    listCardConsents({ merchantId, mode, customerCode: code }),
    listTransactions({ merchantId, mode, limit: 25, customer: code }),
  ]);
  return (
    <>
      <p className="text-sm">
        <Link href="/dashboard/customers" className={linkClass}>
          Back to customers
        </Link>
      </p>
      <PageHeader title="Customer" mode={mode} />
      <Section title={customer.email} id="summary">
        <dl className="divide-y divide-slate-100">
          <Row label="Code">
            <code className="font-mono">{customer.code}</code>
          </Row>
          <Row label="Name">{customer.name ?? "—"}</Row>
          <Row label="Phone">{customer.phone ?? "—"}</Row>
          <Row label="Customer since">{when(customer.createdAt)}</Row>
        </dl>
      </Section>
      <Section title="Saved cards" id="cards">
        {customer.authorizations.length === 0 ? (
          <Empty>No saved cards. A card is saved when the customer agrees on a checkout with saveCard.</Empty>
        ) : (
          <ul className="space-y-4">
            {customer.authorizations.map((a) => {
              const label = `${BRAND_LABEL[a.brand as Brand] || a.brand} •••• ${a.last4}`;
              return (
                <li key={a.authorizationCode} className="rounded-lg p-4 ring-1 ring-slate-200">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h3 className="text-base font-semibold text-slate-900">{label}</h3>
                    <StatusBadge status={a.status} />
                  </div>
                  <dl className="mt-2 divide-y divide-slate-100">
                    <Row label="Authorization">
                      <code className="font-mono break-all">{a.authorizationCode}</code>
                    </Row>
                    <Row label="Expires">
                      {String(a.expMonth).padStart(2, "0")}/{a.expYear}
                    </Row>
                    <Row label="Bank">{a.bank ?? "—"}</Row>
                    <Row label="Saved">{when(a.createdAt)}</Row>
                    <Row label="Last charged">{when(a.lastUsedAt)}</Row>
                  </dl>
                  <h4 className="mt-3 text-sm font-semibold text-slate-900">Consent</h4>
                  <ul className="mt-1 space-y-2">
                    {(consents.get(a.authorizationCode) ?? []).map((c) => (
                      <li key={c.givenAt + c.text} className="rounded bg-slate-50 p-3 text-sm text-slate-800">
                        <p className="whitespace-pre-line break-words">“{c.text}”</p>
                        <p className="mt-1 text-slate-600">
                          {c.kind === "optional" ? "Box ticked" : "Terms of the payment"} ·{" "}
                          {LOCALE_NAMES[c.locale as keyof typeof LOCALE_NAMES] ?? c.locale} ·{" "}
                          {when(c.givenAt)} · from {c.clientAddress}
                          {c.reference && (
                            <>
                              {" "}
                              ·{" "}
                              <Link href={`/dashboard/payments/${c.reference}`} className={linkClass}>
                                {c.reference}
                              </Link>
                            </>
                          )}
                        </p>
                      </li>
                    ))}
                  </ul>
                  {a.status === "active" && (
                    <div className="mt-3">
                      {member.can("customers.write") && (
                        <DeactivateCard code={a.authorizationCode} label={label} />
                      )}
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </Section>
      <Section title="Payments" id="payments">
        {payments.transactions.length === 0 ? (
          <Empty>No payments yet.</Empty>
        ) : (
          <PaymentsTable rows={payments.transactions} caption="The customer's payments" mode={mode} />
        )}
      </Section>
    </>
  );
}
