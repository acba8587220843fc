import { type SelectQueryBuilder, sql } from "kysely";
import { decodeCursor, encodeCursor } from "@/lib/core/cursor";
import { type Int, toMillis } from "./schema";

/**
 * One page of a list ordered newest first by (created_at, id) (keyset pagination, lib/core/cursor.ts): the
 * rows strictly after `cursor` (a nextCursor from the page before; malformed → 400), at most `limit` of
 * them, and the cursor of the page after, or null on the last page.
 */
export async function keysetPage<DB, TB extends keyof DB, O extends { created_at: Int; id: string }>(
  query: SelectQueryBuilder<DB, TB, O>,
  { cursor, idPattern, limit }: { cursor?: string; idPattern: RegExp; limit: number },
): Promise<{ page: O[]; nextCursor: string | null }> {
  let paged = query;
  if (cursor) {
    const { createdAt, id } = decodeCursor(cursor, idPattern);
    paged = paged.where(
      sql<boolean>`(${sql.ref("created_at")} < ${createdAt} or (${sql.ref("created_at")} = ${createdAt} and ${sql.ref("id")} < ${id}))`,
    );
  }
  const rows = (await paged
    .orderBy(sql.ref("created_at"), "desc")
    .orderBy(sql.ref("id"), "desc")
    .limit(limit + 1)
    .execute()) as O[];
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    page,
    nextCursor: rows.length > limit && last ? encodeCursor(toMillis(last.created_at), last.id) : null,
  };
}
