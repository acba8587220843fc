import type { Metadata } from "next";
import { requireMerchant } from "@/lib/console/session";
import { ROLES } from "@/lib/core/roles";
import { listTeam } from "@/lib/team/team";
import { changeRoleAction, inviteAction, removeAction } from "../../_actions/team";
import { NotAllowed, PageHeader, Section, when } from "../../_components/bits";
import { buttonDanger, buttonSmall, selectClass, table, td, th, thead } from "../../_components/styles";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Team" };

/** The team: members and open invitations, roles, invite, remove. Plain forms: they work without JavaScript. */
export default async function TeamPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMerchant();
  const { merchantId, mode } = member;
  if (!member.can("team.read")) return <NotAllowed title="Team" mode={mode} permission="team.read" />;
  const params = await searchParams;
  const team = await listTeam({ merchantId });
  const canWrite = member.can("team.write");
  const roles = ROLES.filter((r) => r !== "owner" || member.can("team.owners"));
  return (
    <>
      <PageHeader title="Team" mode={mode} />
      {typeof params.done === "string" && (
        <p
          role="status"
          className="rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900 ring-1 ring-emerald-200"
        >
          {params.done}
        </p>
      )}
      {typeof params.error === "string" && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200">
          {params.error}
        </p>
      )}
      <Section title="Members" id="members">
        <table className={table}>
          <thead className={thead}>
            <tr>
              <th className={th}>Email</th>
              <th className={th}>Role</th>
              <th className={th}>Status</th>
              <th className={th}>Last signed in</th>
              {canWrite && <th className={th}>Change</th>}
            </tr>
          </thead>
          <tbody>
            {team.map((m) => (
              <tr key={m.id} data-member={m.email}>
                <td className={td}>{m.email}</td>
                <td className={td}>{m.role}</td>
                <td className={td}>
                  {m.status === "invited" ? `invited, until ${when(m.expiresAt)}` : "active"}
                </td>
                <td className={td}>{m.lastSignInAt ? when(m.lastSignInAt) : "never"}</td>
                {canWrite && (
                  <td className={td}>
                    {(m.role !== "owner" || member.can("team.owners")) && (
                      <div className="flex flex-wrap gap-2">
                        {m.status === "active" && (
                          <form action={changeRoleAction} className="flex gap-1">
                            <input type="hidden" name="id" value={m.id} />
                            <label className="sr-only" htmlFor={`role-${m.id}`}>
                              Role of {m.email}
                            </label>
                            <select
                              id={`role-${m.id}`}
                              name="role"
                              defaultValue={m.role}
                              className={selectClass}
                            >
                              {roles.map((r) => (
                                <option key={r} value={r}>
                                  {r}
                                </option>
                              ))}
                            </select>
                            <button type="submit" className={buttonSmall}>
                              Save role
                            </button>
                          </form>
                        )}
                        <form action={removeAction}>
                          <input type="hidden" name="id" value={m.id} />
                          <button type="submit" className={buttonDanger} aria-label={`Remove ${m.email}`}>
                            {m.status === "invited" ? "Withdraw" : "Remove"}
                          </button>
                        </form>
                      </div>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      {canWrite && (
        <Section title="Invite someone" id="invite">
          <form action={inviteAction} className="flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor="invite-email" className="block text-sm font-medium text-slate-800">
                Email address
              </label>
              <input
                id="invite-email"
                name="email"
                type="email"
                required
                autoComplete="off"
                className="mt-1 rounded-lg border border-slate-300 px-3 py-2 text-sm"
              />
            </div>
            <div>
              <label htmlFor="invite-role" className="block text-sm font-medium text-slate-800">
                Role
              </label>
              <select id="invite-role" name="role" defaultValue="viewer" className={`mt-1 ${selectClass}`}>
                {roles.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className={buttonSmall}>
              Send invitation
            </button>
          </form>
          <p className="mt-3 text-sm text-slate-700">
            The invitation's link works once, for 7 days. Owners: everything. Admins: everything but owners.
            Developers: API keys, webhooks, payment links, payments. Support: payments, customers, refunds.
            Viewers: read only.
          </p>
        </Section>
      )}
    </>
  );
}
