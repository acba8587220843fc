import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { type Channel, serializeChannels } from "@/lib/payments/channel-list";
import { serializeEmbedOrigins } from "./embed-origins";
import { presentSettings } from "./present";

/** Change the merchant's checkout settings; fields left out keep their value, `null` clears brand and logo. */
export async function updateSettings(input: {
  merchantId: string;
  businessName?: string;
  channels?: Channel[];
  merchantBearsCost?: boolean;
  brandColor?: string | null;
  logoUrl?: string | null;
  /** Already checked and normalized (EmbedOriginsSchema). */
  embedOrigins?: string[];
  /** The retry days of failed subscription charges (increasing, 1 to 5 of them). */
  dunningDays?: number[];
  audit?: AuditContext;
}) {
  const row = await db()
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable("merchants")
        .set({
          updated_at: Date.now(),
          ...(input.businessName !== undefined && { business_name: input.businessName }),
          ...(input.channels !== undefined && { channels: serializeChannels(input.channels) }),
          ...(input.merchantBearsCost !== undefined && {
            merchant_bears_cost: input.merchantBearsCost ? 1 : 0,
          }),
          ...(input.brandColor !== undefined && { brand_color: input.brandColor }),
          ...(input.logoUrl !== undefined && { logo_url: input.logoUrl }),
          ...(input.dunningDays !== undefined && { dunning_days: JSON.stringify(input.dunningDays) }),
          ...(input.embedOrigins !== undefined && {
            embed_origins: serializeEmbedOrigins(input.embedOrigins),
          }),
        })
        .where("id", "=", input.merchantId)
        .execute();
      if (input.audit) {
        const changed = [
          "businessName",
          "channels",
          "merchantBearsCost",
          "brandColor",
          "logoUrl",
          "embedOrigins",
        ]
          .filter((k) => input[k as keyof typeof input] !== undefined)
          .join(", ");
        await recordAudit(trx, input.audit, "settings.update", changed || null);
      }
      return trx.selectFrom("merchants").selectAll().where("id", "=", input.merchantId).executeTakeFirst();
    });
  if (!row) throw new AppError("invalid_session", "The merchant of this session no longer exists.");
  return presentSettings(row);
}
