import type { Metadata } from "next";
import { requireMerchant } from "@/lib/console/session";
import { listKeys } from "@/lib/merchants/list-keys";
import { NotAllowed, PageHeader, Section, when } from "../../_components/bits";
import { RollKey } from "../../_components/roll-key";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage() {
  const member = await requireMerchant();
  const { merchantId, mode } = member;
  if (!member.can("developers.read"))
    return <NotAllowed title="API keys" mode={mode} permission="developers.read" />;
  const keys = await listKeys({ merchantId });
  const key = keys.find((k) => k.mode === mode);
  return (
    <>
      <PageHeader title="API keys" mode={mode} />
      <Section title={mode === "test" ? "Test secret key" : "Live secret key"} id="key">
        {key ? (
          <dl className="space-y-1 text-sm">
            <div className="flex gap-2">
              <dt className="font-medium text-slate-600">Key</dt>
              <dd>
                <code className="font-mono">{key.hint}</code>
              </dd>
            </div>
            <div className="flex gap-2">
              <dt className="font-medium text-slate-600">Made</dt>
              <dd>{when(key.createdAt)}</dd>
            </div>
          </dl>
        ) : (
          <p className="text-sm text-slate-700">No active {mode} key.</p>
        )}
        <p className="mt-3 text-sm text-slate-700">
          A secret key is stored only as a hash, so it cannot be shown again. If it is lost or leaked, roll
          it: a new key is shown once, and the old one stops working at once.
        </p>
        <div className="mt-4">{member.can("keys.write") && <RollKey mode={mode} />}</div>
      </Section>
    </>
  );
}
