import { z } from "zod";
import { CURRENCY_CODES, type Currency } from "@/lib/money/currencies";
import { ChannelName, CurrencyCode, ModeName, Money, Timestamp } from "@/lib/openapi/common";

const Merchant = z.object({ id: z.string(), businessName: z.string(), email: z.email() });
const SessionToken = {
  accessToken: z.string().meta({ example: "mst_2QpXk..." }),
  expiresAt: Timestamp,
};

/** `data` of signup: the merchant, a session, and both secret keys, shown this once. */
export const SignupResponse = z.object({
  merchant: Merchant,
  ...SessionToken,
  keys: z.object({
    test: z.object({ secretKey: z.string().regex(/^sk_test_/) }),
    live: z.object({ secretKey: z.string().regex(/^sk_live_/) }),
  }),
});

export const LoginResponse = z.object({ merchant: Merchant, ...SessionToken });

export const LogoutResponse = z.object({ signedOut: z.literal(true) });

export const RollKeyResponse = z.object({ mode: ModeName, secretKey: z.string().regex(/^sk_(test|live)_/) });

const FeeRule = z.object({
  percent: z.string().meta({ example: "1.5" }),
  flat: Money,
  flatWaivedBelow: Money,
  cap: Money.nullable(),
});

/** `data` of the settings endpoints (presentSettings). */
export const SettingsResponse = z
  .object({
    businessName: z.string(),
    email: z.email(),
    channels: z.array(ChannelName),
    merchantBearsCost: z.boolean(),
    brandColor: z.string().nullable(),
    logoUrl: z.string().nullable(),
    fees: z.object(
      Object.fromEntries(
        CURRENCY_CODES.map((c) => [c, z.object({ card: FeeRule, transfer: FeeRule })]),
      ) as Record<Currency, z.ZodObject<{ card: typeof FeeRule; transfer: typeof FeeRule }>>,
    ),
    customFees: z.array(CurrencyCode),
  })
  .meta({ id: "MerchantSettings" });
