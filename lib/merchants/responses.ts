import { z } from "zod";
import { ROLES } from "@/lib/core/roles";
import { ModeName, Money, Timestamp } from "@/lib/core/schemas";
import { CURRENCY_CODES, type Currency } from "@/lib/money/currencies";
import { ChannelName, CurrencyCode } from "@/lib/payments/vocabulary";

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

const RoleName = z
  .enum(ROLES)
  .meta({ description: 'The member\'s role in this merchant (docs/console.md "Team").' });

export const LoginResponse = z.object({ merchant: Merchant, role: RoleName, ...SessionToken });

/** `data` of GET /v1/merchants/memberships: the signed-in user's merchants and their role in each. */
export const MembershipsResponse = z.array(
  z.object({ merchantId: z.string(), businessName: z.string(), role: RoleName }),
);

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
    /** The web origins that may frame the checkout (the embedded checkout); empty: none. */
    embedOrigins: z.array(z.string()),
    /** The retry days of a subscription's failed charge (PUT settings `dunningDays`). */
    dunningDays: z.array(z.number().int()),
    fees: z.object(
      Object.fromEntries(
        CURRENCY_CODES.map((c) => [c, z.object({ card: FeeRule, transfer: FeeRule })]),
      ) as Record<Currency, z.ZodObject<{ card: typeof FeeRule; transfer: typeof FeeRule }>>,
    ),
    customFees: z.array(CurrencyCode),
  })
  .meta({ id: "MerchantSettings" });

/** `data` of the Paystack connection endpoints (presentPaystackConnection): never the key itself. */
export const PaystackConnectionResponse = z
  .object({
    processor: z.literal("paystack"),
    mode: ModeName,
    connected: z.boolean(),
    keyHint: z
      .string()
      .nullable()
      .meta({ description: "The key's prefix and last four characters.", example: "sk_live_…9f3a" }),
    connectedAt: Timestamp.nullable(),
    updatedAt: Timestamp.nullable(),
    webhookUrl: z.string().meta({
      description: "Set it as the Webhook URL in Paystack's dashboard (Settings → API Keys & Webhooks).",
      example: "https://pay.example.com/v1/rails/paystack/webhook?connection=psc_4Gm7Qx2Lp9Zr8Tn3Vb6Ky1Wd",
    }),
    callbackUrl: z.string().meta({
      description:
        "Set it as the Callback URL in Paystack's dashboard: customers come back there from their bank's page.",
      example: "https://pay.example.com/pay/return/paystack",
    }),
    deploymentDefault: z.boolean(),
  })
  .meta({ id: "PaystackConnection" });

export const PasswordResetResponse = z.object({ accepted: z.literal(true) });

export const PasswordChangedResponse = z.object({ passwordChanged: z.literal(true) });

/** `data` of login: a session, or with two-factor sign-in on, the challenge its code answers. */
export const LoginOrChallengeResponse = z.union([
  LoginResponse,
  z.object({ twoFactorRequired: z.literal(true), challenge: z.string().meta({ example: "l2f_8Kq..." }) }),
]);

export const TwoFactorSetupResponse = z.object({
  secret: z.string().meta({ description: "Base32, for apps that cannot scan the QR code." }),
  otpauthUrl: z.string().startsWith("otpauth://totp/"),
  qrCode: z
    .string()
    .startsWith("data:image/png;base64,")
    .meta({ description: "The otpauthUrl as a PNG, drawn on the server." }),
});

export const RecoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()).length(10) });

export const TwoFactorRequirementResponse = z.object({ required: z.boolean() });
