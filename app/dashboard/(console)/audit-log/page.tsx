import type { Metadata } from "next";
import Link from "next/link";
import { listAuditLog } from "@/lib/audit/list-audit-log";
import { AuditLogQuery } from "@/lib/audit/schemas";
import { requireMerchant } from "@/lib/console/session";
import { Empty, NotAllowed, PageHeader, Section, when } from "../../_components/bits";
import { buttonSmall, linkClass, table, td, th, thead } from "../../_components/styles";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Audit log" };

/**
 * Who changed what: the audit log, newest first, filtered by actor and action (a GET form: it works without
 * JavaScript), a page at a time, and its CSV export with the same filters.
 */
export default async function AuditLogPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMerchant();
  const { merchantId, mode } = member;
  if (!member.can("audit.read")) return <NotAllowed title="Audit log" mode={mode} permission="audit.read" />;
  const raw = await searchParams;
  const picked = Object.fromEntries(
    ["actor", "action", "cursor"].flatMap((k) => (typeof raw[k] === "string" && raw[k] ? [[k, raw[k]]] : [])),
  );
  const parsed = AuditLogQuery.safeParse(picked);
  const filters = parsed.success ? parsed.data : { limit: 50 };
  const { entries, nextCursor } = await listAuditLog({ merchantId, ...filters });
  const query = new URLSearchParams(
    Object.entries({ actor: picked.actor, action: picked.action }).flatMap(([k, v]) => (v ? [[k, v]] : [])),
  );
  return (
    <>
      <PageHeader title="Audit log" mode={mode}>
        <a href={`/dashboard/api/audit-log/export?${query}`} className={buttonSmall} download>
          Export CSV
        </a>
      </PageHeader>
      <Section title="Filters" id="filters">
        <form method="get" className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="audit-actor" className="block text-sm font-medium text-slate-800">
              Actor (email or key's last 4)
            </label>
            <input
              id="audit-actor"
              name="actor"
              defaultValue={typeof picked.actor === "string" ? picked.actor : ""}
              className="mt-1 rounded-lg border border-slate-300 px-3 py-2 text-sm"
            />
          </div>
          <div>
            <label htmlFor="audit-action" className="block text-sm font-medium text-slate-800">
              Action (refund.create, or team)
            </label>
            <input
              id="audit-action"
              name="action"
              defaultValue={typeof picked.action === "string" ? picked.action : ""}
              className="mt-1 rounded-lg border border-slate-300 px-3 py-2 text-sm"
            />
          </div>
          <button type="submit" className={buttonSmall}>
            Filter
          </button>
        </form>
        {!parsed.success && (
          <p role="alert" className="mt-3 text-sm text-red-800">
            {parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}
          </p>
        )}
      </Section>
      <Section title="Changes" id="changes">
        {entries.length === 0 ? (
          <Empty>No changes recorded{query.size ? " match these filters" : " yet"}.</Empty>
        ) : (
          <table className={table}>
            <thead className={thead}>
              <tr>
                <th className={th}>When</th>
                <th className={th}>Who</th>
                <th className={th}>Action</th>
                <th className={th}>What</th>
                <th className={th}>Mode</th>
                <th className={th}>Address</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} data-audit-action={e.action}>
                  <td className={td}>{when(e.at)}</td>
                  <td className={td}>
                    {e.actor.type === "member" ? e.actor.email : `secret key …${e.actor.last4}`}
                  </td>
                  <td className={td}>
                    <code>{e.action}</code>
                  </td>
                  <td className={`${td} whitespace-normal`}>{e.target ?? ""}</td>
                  <td className={td}>{e.mode}</td>
                  <td className={td}>{e.address ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {nextCursor && (
          <p className="mt-3 text-sm">
            <Link
              href={`/dashboard/audit-log?${new URLSearchParams([...query, ["cursor", nextCursor]])}`}
              className={linkClass}
            >
              Older changes
            </Link>
          </p>
        )}
      </Section>
      <p className="text-sm text-slate-700">
        Entries are kept for as long as the merchant's account exists: nothing changes or removes them (see
        the API reference, "Audit log").
      </p>
    </>
  );
}
