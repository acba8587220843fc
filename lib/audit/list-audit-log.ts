import { sql } from "kysely";
import { decodeCursor, encodeCursor } from "@/lib/core/cursor";
import { db } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";

export type AuditFilters = {
  /** A member's email, or a secret key's last four characters. */
  actor?: string;
  /** An action (`refund.create`) or its object alone (`team`: every `team.*`). */
  action?: string;
  limit: number;
  cursor?: string;
};

const ID = /^[0-9a-f-]{36}$/;

/**
 * The merchant's audit log, newest first, in both modes (each entry says its own), filtered by actor and
 * action, a page at a time (keyset pagination over (at, id): lib/core/cursor.ts).
 */
export async function listAuditLog(input: { merchantId: string } & AuditFilters) {
  let query = db().selectFrom("audit_log").selectAll().where("merchant_id", "=", input.merchantId);
  if (input.actor) {
    const actor = input.actor.trim().toLowerCase();
    query = actor.includes("@")
      ? query.where("actor_type", "=", "member").where("actor_email", "=", actor)
      : query
          .where("actor_type", "=", "secret_key")
          .where("actor_key_last4", "=", input.actor.trim().slice(-4));
  }
  if (input.action) {
    query = input.action.includes(".")
      ? query.where("action", "=", input.action)
      : query.where("action", "like", `${input.action.replace(/[%_\\]/g, "")}.%`);
  }
  if (input.cursor) {
    const { createdAt, id } = decodeCursor(input.cursor, ID);
    query = query.where(sql<boolean>`(at < ${createdAt} or (at = ${createdAt} and id < ${id}))`);
  }
  const rows = await query
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .limit(input.limit + 1)
    .execute();
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    entries: page.map((r) => ({
      id: r.id,
      at: new Date(toMillis(r.at)).toISOString(),
      mode: r.mode,
      action: r.action,
      target: r.target,
      actor:
        r.actor_type === "member"
          ? { type: "member" as const, email: r.actor_email ?? "" }
          : { type: "secret_key" as const, last4: r.actor_key_last4 ?? "" },
      address: r.address,
    })),
    nextCursor: rows.length > input.limit && last ? encodeCursor(toMillis(last.at), last.id) : null,
  };
}
