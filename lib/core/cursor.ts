import { AppError } from "./errors";

/**
 * Keyset pagination for lists ordered by (created_at desc, id desc): the cursor is the last row's
 * `createdAt:id`, base64url; the next page holds the rows strictly after it in that order.
 */
export function encodeCursor(createdAt: number, id: string): string {
  return Buffer.from(`${createdAt}:${id}`).toString("base64url");
}

export function decodeCursor(cursor: string, idPattern: RegExp): { createdAt: number; id: string } {
  const text = Buffer.from(cursor, "base64url").toString();
  const colon = text.indexOf(":");
  const createdAt = text.slice(0, colon);
  const id = text.slice(colon + 1);
  if (colon < 1 || !/^\d{1,16}$/.test(createdAt) || !idPattern.test(id)) {
    throw new AppError("validation_error", "cursor must be a nextCursor value from a previous page.");
  }
  return { createdAt: Number(createdAt), id };
}
