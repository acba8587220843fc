import type { Mode, SecretKeyPrincipal, SessionPrincipal } from "@/lib/core/principal";
import type { Trx } from "@/lib/db/types";
import { newId } from "@/lib/security/tokens";

/**
 * The audit log (docs/api.md "Audit log"): every change made with a session or a secret key, written by the
 * verb that makes the change, in the change's own database transaction, so a change and its record are kept
 * or lost together. Rows are only ever inserted: nothing updates or deletes them; they are kept for as long
 * as the merchant's account (docs/api.md "Audit log", retention).
 */

/** Who made a change: a member (by email) or a secret key (by its last four characters). */
export type AuditActor = { type: "member"; email: string } | { type: "secret_key"; last4: string };

/** Whose change, in which mode, by whom and from which client address: what each verb is handed. */
export type AuditContext = { merchantId: string; mode: Mode; actor: AuditActor; address: string | null };

/** The context of a change made by the caller of a request (a session or a secret key) from `address`. */
export function auditContext(
  principal: SessionPrincipal | SecretKeyPrincipal,
  address: string | null,
): AuditContext {
  return {
    merchantId: principal.merchantId,
    mode: principal.mode,
    actor:
      principal.kind === "session"
        ? { type: "member", email: principal.email }
        : { type: "secret_key", last4: principal.keyLast4 },
    address,
  };
}

/**
 * Actions, `<object>.<verb>`: what the log's `action` filter takes. A feature adds its own here.
 */
export const AUDIT_ACTIONS = [
  "refund.create",
  "key.roll",
  "webhook.update",
  "webhook.delete",
  "webhook.roll_secret",
  "webhook.redeliver",
  "settings.update",
  "link.create",
  "link.update",
  "processor.connect",
  "processor.disconnect",
  "customer.create",
  "customer.update",
  "card.deactivate",
  "team.invite",
  "team.join",
  "team.role_change",
  "team.remove",
  "team.invitation_revoke",
  "account.password_reset",
  "account.two_factor_enable",
  "account.two_factor_disable",
  "account.email_confirm",
  "settings.require_two_factor",
  "plan.create",
  "plan.update",
  "subscription.create",
  "subscription.update",
  "subscription.cancel",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Record one change, inside its transaction (`trx`): call it beside the write it records. `target` names what
 * was changed (a reference, a link's slug, a member's email, a mode), never a secret.
 */
export async function recordAudit(
  trx: Trx,
  context: AuditContext,
  action: AuditAction,
  target: string | null,
  now = Date.now(),
): Promise<void> {
  await trx
    .insertInto("audit_log")
    .values({
      id: newId(),
      merchant_id: context.merchantId,
      mode: context.mode,
      at: now,
      action,
      target: target === null ? null : target.slice(0, 300),
      actor_type: context.actor.type,
      actor_email: context.actor.type === "member" ? context.actor.email : null,
      actor_key_last4: context.actor.type === "secret_key" ? context.actor.last4 : null,
      address: context.address === null ? null : context.address.slice(0, 64),
    })
    .execute();
}
