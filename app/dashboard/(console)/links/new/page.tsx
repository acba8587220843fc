import type { Metadata } from "next";
import Link from "next/link";
import { requireMerchant } from "@/lib/console/session";
import { getSettings } from "@/lib/merchants/get-settings";
import { CURRENCY_CODES } from "@/lib/money/currencies";
import { NotAllowed, PageHeader, Section } from "../../../_components/bits";
import { LinkForm } from "../../../_components/link-form";
import { linkClass } from "../../../_components/styles";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New payment link" };

export default async function NewLinkPage() {
  const member = await requireMerchant();
  const { merchantId, mode } = member;
  if (!member.can("links.write"))
    return <NotAllowed title="New payment link" mode={mode} permission="links.write" />;
  const settings = await getSettings({ merchantId });
  return (
    <>
      <p className="text-sm">
        <Link href="/dashboard/links" className={linkClass}>
          Back to payment links
        </Link>
      </p>
      <PageHeader title="New payment link" mode={mode} />
      <Section title="Details" id="details">
        <LinkForm currencies={[...CURRENCY_CODES]} channels={settings.channels} />
      </Section>
    </>
  );
}
