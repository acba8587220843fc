import type { Metadata } from "next";
import { requireMerchant } from "@/lib/console/session";
import { consoleWebhookEndpoint } from "@/lib/console/webhook-endpoint";
import { EVENT_TYPES } from "@/lib/webhooks/event-types";
import { NotAllowed, PageHeader, Section, when } from "../../_components/bits";
import { EventLog } from "../../_components/event-log";
import { WebhookForm } from "../../_components/webhook-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const member = await requireMerchant();
  const { merchantId, mode } = member;
  if (!member.can("developers.read"))
    return <NotAllowed title="Webhooks" mode={mode} permission="developers.read" />;
  const endpoint = await consoleWebhookEndpoint({ merchantId, mode });
  return (
    <>
      <PageHeader title="Webhooks" mode={mode} />
      <Section title="Endpoint" id="endpoint">
        {endpoint && (
          <dl className="mb-4 space-y-1 text-sm">
            <div className="flex flex-wrap gap-2">
              <dt className="font-medium text-slate-600">State</dt>
              <dd data-endpoint-status={endpoint.status}>
                {endpoint.status === "enabled" ? (
                  "Enabled"
                ) : (
                  <span className="font-semibold text-red-800">
                    Disabled{endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}
                    {endpoint.disabledAt ? ` (since ${when(endpoint.disabledAt)})` : ""}. Save it again to
                    enable it.
                  </span>
                )}
              </dd>
            </div>
            <div className="flex flex-wrap gap-2">
              <dt className="font-medium text-slate-600">Events</dt>
              <dd>{endpoint.events.join(", ")}</dd>
            </div>
            {endpoint.previousSecretExpiresAt && (
              <div className="flex flex-wrap gap-2">
                <dt className="font-medium text-slate-600">Previous secret signs until</dt>
                <dd>{when(endpoint.previousSecretExpiresAt)}</dd>
              </div>
            )}
          </dl>
        )}
        {member.can("webhooks.write") && (
          <WebhookForm
            mode={mode}
            url={endpoint?.url ?? ""}
            exists={Boolean(endpoint)}
            events={endpoint?.events ?? [...EVENT_TYPES]}
          />
        )}
      </Section>
      <Section title="Deliveries" id="deliveries">
        <EventLog mode={mode} canRedeliver={member.can("webhooks.write")} />
      </Section>
    </>
  );
}
