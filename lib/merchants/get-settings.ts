import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { presentSettings } from "./present";

export async function getSettings(input: { merchantId: string }) {
  const row = await db()
    .selectFrom("merchants")
    .selectAll()
    .where("id", "=", input.merchantId)
    .executeTakeFirst();
  if (!row) throw new AppError("invalid_session", "The merchant of this session no longer exists.");
  return presentSettings(row);
}
