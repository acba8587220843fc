import type { Metadata } from "next";
import { requireMerchant } from "@/lib/console/session";
import { listMemberships } from "@/lib/merchants/memberships";
import { PageHeader, Section } from "../../_components/bits";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your account" };

/** The signed-in user's own account: who they are, and the merchants they belong to. */
export default async function AccountPage() {
  const member = await requireMerchant();
  const merchants = await listMemberships({ userId: member.principal.userId });
  return (
    <>
      <PageHeader title="Your account" mode={member.mode} />
      <Section title="You" id="you">
        <dl className="space-y-1 text-sm">
          <div className="flex flex-wrap gap-2">
            <dt className="font-medium text-slate-600">Email</dt>
            <dd>{member.principal.email}</dd>
          </div>
          <div className="flex flex-wrap gap-2">
            <dt className="font-medium text-slate-600">Role here</dt>
            <dd>{member.principal.role}</dd>
          </div>
        </dl>
      </Section>
      <Section title="Your merchants" id="merchants">
        <ul className="space-y-1 text-sm">
          {merchants.map((m) => (
            <li key={m.merchantId}>
              {m.businessName} ({m.role}){m.merchantId === member.merchantId ? ", signed in here" : ""}
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
