import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { keysetPage } from "@/lib/db/keyset";
import type { Mode } from "@/lib/db/schema";
import { presentRefund } from "./present";
import { REFUND_ID, type RefundStatusName } from "./schemas";

/** GET /refunds: the merchant's refunds in one mode, newest first, paged by an opaque cursor. */
export async function listRefunds(input: {
  merchantId: string;
  mode: Mode;
  limit: number;
  reference?: string;
  status?: RefundStatusName;
  cursor?: string;
}) {
  let query = db()
    .selectFrom("refunds")
    .selectAll()
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode);
  if (input.reference) query = query.where("reference", "=", input.reference);
  if (input.status) query = query.where("status", "=", input.status);
  const { page, nextCursor } = await keysetPage(query, {
    cursor: input.cursor,
    idPattern: REFUND_ID,
    limit: input.limit,
  });
  return { refunds: page.map(presentRefund), nextCursor };
}

/** GET /refunds/{id}: one of the merchant's refunds in this mode; another merchant's looks unknown (404). */
export async function findRefund(input: { merchantId: string; mode: Mode; id: string }) {
  const row = await db()
    .selectFrom("refunds")
    .selectAll()
    .where("id", "=", input.id)
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .executeTakeFirst();
  if (!row) throw new AppError("refund_not_found", `id: no refund ${input.id} in ${input.mode} mode.`);
  return row;
}

export async function getRefund(input: { merchantId: string; mode: Mode; id: string }) {
  return presentRefund(await findRefund(input));
}
