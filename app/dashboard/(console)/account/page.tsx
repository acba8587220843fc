import type { Metadata } from "next";
import { requireMerchant } from "@/lib/console/session";
import { listMemberships } from "@/lib/merchants/memberships";
import { twoFactorEnabled, twoFactorRequired } from "@/lib/merchants/two-factor";
import { requireTwoFactorAction } from "../../_actions/two-factor";
import { PageHeader, Section } from "../../_components/bits";
import { TwoFactorSetup } from "../../_components/two-factor-setup";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your account" };

/** The signed-in user's own account: who they are, and the merchants they belong to. */
export default async function AccountPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMerchant();
  const params = await searchParams;
  const merchants = await listMemberships({ userId: member.principal.userId });
  const enabled = await twoFactorEnabled(member.principal.userId);
  const required = await twoFactorRequired(member.merchantId);
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
      <Section title="Two-factor sign-in" id="two-factor">
        {member.principal.twoFactorMissing && (
          <p role="alert" className="mb-3 text-sm text-amber-950">
            This merchant requires two-factor sign-in: set it up to use the console.
          </p>
        )}
        {enabled ? (
          <p className="text-sm">On: every sign-in asks for a code of your authenticator app.</p>
        ) : (
          <TwoFactorSetup />
        )}
        {member.can("team.owners") && (
          <form action={requireTwoFactorAction} className="mt-4 flex flex-wrap items-center gap-2 text-sm">
            <input id="require-2fa" type="checkbox" name="required" defaultChecked={required} />
            <label htmlFor="require-2fa">Require two-factor sign-in of every member</label>
            <button
              type="submit"
              className="rounded-lg px-2 py-1 font-semibold text-teal-800 ring-1 ring-slate-300"
            >
              Save
            </button>
          </form>
        )}
        {typeof params.error === "string" && (
          <p role="alert" className="mt-2 text-sm text-red-800">
            {params.error}
          </p>
        )}
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
