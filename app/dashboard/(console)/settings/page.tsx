import type { Metadata } from "next";
import { requireMerchant } from "@/lib/console/session";
import { deploymentMode } from "@/lib/env";
import { getPaystackConnection } from "@/lib/merchants/get-paystack-connection";
import { getSettings } from "@/lib/merchants/get-settings";
import { describeFeeRule } from "@/lib/money/fees";
import { NotAllowed, PageHeader, Section } from "../../_components/bits";
import { PaystackConnection } from "../../_components/paystack-connection";
import { SettingsForm } from "../../_components/settings-form";
import { table, td, th, thead } from "../../_components/styles";
import { TableScroll } from "../../_components/table-scroll";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const member = await requireMerchant();
  const { merchantId, mode } = member;
  if (!member.can("settings.read"))
    return <NotAllowed title="Settings" mode={mode} permission="settings.read" />;
  const s = await getSettings({ merchantId });
  const served = deploymentMode() === mode;
  const paystack = served ? await getPaystackConnection({ merchantId, mode }) : null;
  return (
    <>
      <PageHeader title="Settings" mode={mode} />
      <Section title="Business" id="business">
        <dl className="space-y-1 text-sm">
          <div className="flex flex-wrap gap-2">
            <dt className="font-medium text-slate-600">Email</dt>
            <dd>{s.email}</dd>
          </div>
        </dl>
      </Section>
      <Section title="Checkout" id="checkout">
        {member.can("settings.write") ? (
          <SettingsForm
            initial={{
              channels: s.channels,
              merchantBearsCost: s.merchantBearsCost,
              brandColor: s.brandColor,
              logoUrl: s.logoUrl,
              embedOrigins: s.embedOrigins,
            }}
            businessName={s.businessName}
          />
        ) : (
          <p className="text-sm text-slate-700" data-testid="settings-read-only">
            Channels: {s.channels.join(", ")}. Fees are borne by{" "}
            {s.merchantBearsCost ? "you" : "the customer"}.
          </p>
        )}
      </Section>
      <Section title="Embedded checkout" id="embedded-checkout">
        {s.embedOrigins.length ? (
          <>
            <p className="text-sm text-slate-700">
              Pages of these websites can open your checkout over themselves (<code>/v1/inline.js</code>):
            </p>
            <ul className="mt-2 space-y-1 font-mono text-sm" data-testid="embed-origins">
              {s.embedOrigins.map((origin) => (
                <li key={origin}>{origin}</li>
              ))}
            </ul>
          </>
        ) : (
          <p className="text-sm text-slate-700" data-testid="embed-origins">
            No website may embed your checkout yet: list yours under Checkout above.
          </p>
        )}
      </Section>
      <Section title="Live payments" id="live-payments">
        {paystack ? (
          member.can("settings.write") ? (
            <PaystackConnection initial={paystack} />
          ) : (
            <p className="text-sm text-slate-700">
              {paystack.connected ? `Connected (${paystack.keyHint}).` : "Not connected."}
            </p>
          )
        ) : (
          <p className="text-sm text-slate-700">
            {mode === "live"
              ? "Live payments are set up on the production deployment: sign in there, switch to Live and connect your Paystack account."
              : "Test payments are set up on the staging deployment."}
          </p>
        )}
      </Section>
      <Section title="Fees" id="fees">
        <p className="mb-3 text-sm text-slate-700">
          What each payment costs, set by Paygate
          {s.customFees.length ? ` (your own rates for ${s.customFees.join(", ")})` : ""}. Ask us to change
          them.
        </p>
        <TableScroll label="Fees per currency">
          <table className={table}>
            <caption className="sr-only">Fees per currency</caption>
            <thead className={thead}>
              <tr>
                <th scope="col" className={th}>
                  Currency
                </th>
                <th scope="col" className={th}>
                  Card
                </th>
                <th scope="col" className={th}>
                  Transfer, bank payment, USSD
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {Object.entries(s.fees).map(([currency, f]) => (
                <tr key={currency}>
                  <th scope="row" data-label="Currency" className={th}>
                    {currency}
                  </th>
                  <td data-label="Card" className={td}>
                    {describeFeeRule(f.card, currency)}
                  </td>
                  <td data-label="Transfer, bank payment, USSD" className={td}>
                    {describeFeeRule(f.transfer, currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </Section>
    </>
  );
}
