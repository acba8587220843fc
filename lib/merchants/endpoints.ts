import { auditContext } from "@/lib/audit/record";
import { defineEndpoint, withHeaders } from "@/lib/core/endpoint";
import { listTransactions } from "@/lib/payments/list-transactions";
import { TransactionListResponse } from "@/lib/payments/responses";
import { deviceCookieOf } from "@/lib/security/known-device";
import { connectPaystack } from "./connect-paystack";
import { apiDeviceCookie, DeviceCookieHeaders } from "./device-cookie-header";
import { disconnectPaystack } from "./disconnect-paystack";
import { getPaystackConnection } from "./get-paystack-connection";
import { getSettings } from "./get-settings";
import { loginMerchant, loginTwoFactor } from "./login-merchant";
import { logoutMerchant } from "./logout-merchant";
import { listMemberships, switchMerchant } from "./memberships";
import { confirmPasswordReset, requestPasswordReset } from "./password-reset";
import {
  LoginOrChallengeResponse,
  LoginResponse,
  LogoutResponse,
  MembershipsResponse,
  PasswordChangedResponse,
  PasswordResetResponse,
  PaystackConnectionResponse,
  RecoveryCodesResponse,
  RollKeyResponse,
  SettingsResponse,
  SignupResponse,
  TwoFactorRequirementResponse,
  TwoFactorSetupResponse,
} from "./responses";
import { rollSecretKey } from "./roll-secret-key";
import {
  LoginBody,
  LoginTwoFactorBody,
  PasswordResetBody,
  PasswordResetConfirmBody,
  PaystackConnectBody,
  PaystackModeBody,
  PaystackModeQuery,
  RollKeyBody,
  SettingsBody,
  SignupBody,
  SwitchMerchantBody,
  TransactionsQuery,
  TwoFactorEnableBody,
  TwoFactorRequirementBody,
} from "./schemas";
import { signupMerchant } from "./signup-merchant";
import { enableTwoFactor, setTwoFactorRequirement, setupTwoFactor } from "./two-factor";
import { updateSettings } from "./update-settings";

/** Merchants: accounts, keys, settings, their transactions and their own Paystack account (session token). */
export const merchantsEndpoints = {
  signup: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/auth/signup",
    tag: "Merchants",
    summary: "Create a merchant",
    description: "Answers its two secret keys (shown this once) and a session token.",
    auth: "none",
    body: SignupBody,
    status: 201,
    response: SignupResponse,
    errors: ["email_taken"],
    example: {
      businessName: "Ada Stores",
      email: "ada@example.com",
      password: "correct horse battery staple",
    },
    responseHeaders: DeviceCookieHeaders,
    handler: async ({ body, clientAddress, headers }) => {
      const { device, ...created } = await signupMerchant({ ...body, clientAddress });
      return withHeaders(created, { "set-cookie": apiDeviceCookie(device, headers) });
    },
  }),
  login: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/auth/login",
    tag: "Merchants",
    summary: "Sign in: email and password for a session token",
    auth: "none",
    body: LoginBody,
    status: 200,
    response: LoginOrChallengeResponse,
    errors: ["invalid_credentials"],
    example: { email: "ada@example.com", password: "correct horse battery staple" },
    description:
      "A client that keeps the device cookie this answers (Set-Cookie) and sends it back is let in with a right password even while guesses from elsewhere have the account locked (429 for other clients). With two-factor sign-in on, a right password answers `{twoFactorRequired: true, challenge}` instead, from any client: POST /v1/merchants/auth/login/2fa gives the session.",
    responseHeaders: DeviceCookieHeaders,
    handler: async ({ body, clientAddress, headers }) => {
      const signedIn = await loginMerchant({
        ...body,
        clientAddress,
        deviceCookie: deviceCookieOf(headers.get("cookie")),
      });
      if ("challenge" in signedIn) return signedIn;
      const { device, ...session } = signedIn;
      return withHeaders(session, { "set-cookie": apiDeviceCookie(device, headers) });
    },
  }),
  loginTwoFactor: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/auth/login/2fa",
    tag: "Merchants",
    summary: "Sign in, second step: the challenge and a two-factor code (or a recovery code)",
    description:
      "A code is accepted once (a later code is needed after it); a challenge lasts 5 minutes and takes at most 5 codes, then sign in with the password again.",
    auth: "none",
    body: LoginTwoFactorBody,
    status: 200,
    response: LoginResponse,
    errors: ["invalid_token", "invalid_two_factor_code"],
    example: { challenge: `l2f_${"x".repeat(43)}`, code: "123456" },
    responseHeaders: DeviceCookieHeaders,
    handler: async ({ body, headers }) => {
      const { device, ...session } = await loginTwoFactor(body);
      return withHeaders(session, { "set-cookie": apiDeviceCookie(device, headers) });
    },
  }),
  setupTwoFactor: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/auth/2fa/setup",
    tag: "Merchants",
    summary: "Start two-factor sign-in: a new TOTP secret and its QR code",
    description:
      "RFC 6238: 30-second steps, 6 digits, SHA-1. The secret is kept sealed until a code of it enables it (POST /v1/merchants/auth/2fa/enable).",
    auth: "session",
    permission: "account.self",
    status: 200,
    response: TwoFactorSetupResponse,
    handler: ({ auth }) => setupTwoFactor({ userId: auth.userId, email: auth.email }),
  }),
  enableTwoFactor: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/auth/2fa/enable",
    tag: "Merchants",
    summary: "Turn two-factor sign-in on with a code; answers 10 recovery codes, shown once",
    auth: "session",
    permission: "account.self",
    body: TwoFactorEnableBody,
    status: 200,
    response: RecoveryCodesResponse,
    errors: ["invalid_two_factor_code", "invalid_state"],
    example: { code: "123456" },
    handler: ({ auth, body, clientAddress }) =>
      enableTwoFactor({ userId: auth.userId, code: body.code, audit: auditContext(auth, clientAddress) }),
  }),
  requireTwoFactor: defineEndpoint({
    method: "PUT",
    path: "/v1/merchants/two-factor-requirement",
    tag: "Merchants",
    summary: "Require two-factor sign-in of every member (owners only)",
    description:
      "With it on, a member without two-factor sign-in may only set it up: every other session endpoint answers 403 forbidden.",
    auth: "session",
    permission: "team.owners",
    body: TwoFactorRequirementBody,
    status: 200,
    response: TwoFactorRequirementResponse,
    errors: ["invalid_state"],
    example: { required: true },
    handler: ({ auth, body, clientAddress }) =>
      setTwoFactorRequirement({
        merchantId: auth.merchantId,
        userId: auth.userId,
        required: body.required,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  passwordReset: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/auth/password-reset",
    tag: "Merchants",
    summary: "Email a password-reset link (202 for any email)",
    description:
      "Answers 202 after the same time whether or not the email has an account; only an account's email gets the link (/dashboard/reset-password/{token}, valid 30 minutes, used once). Limited per address and per email.",
    auth: "none",
    body: PasswordResetBody,
    status: 202,
    response: PasswordResetResponse,
    errors: ["rate_limited"],
    example: { email: "ada@example.com" },
    handler: ({ body, clientAddress }) => requestPasswordReset({ email: body.email, clientAddress }),
  }),
  passwordResetConfirm: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/auth/password-reset/confirm",
    tag: "Merchants",
    summary: "Set a new password from a reset link; every session of the user ends",
    auth: "none",
    body: PasswordResetConfirmBody,
    status: 200,
    response: PasswordChangedResponse,
    errors: ["invalid_token"],
    example: { token: `pwr_${"x".repeat(43)}`, password: "a brand new passphrase" },
    handler: ({ body, clientAddress }) => confirmPasswordReset({ ...body, clientAddress }),
  }),
  logout: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/auth/logout",
    tag: "Merchants",
    summary: "End this session",
    auth: "session",
    permission: "account.self",
    status: 200,
    response: LogoutResponse,
    handler: ({ auth }) => logoutMerchant({ sessionId: auth.sessionId }),
  }),
  memberships: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/memberships",
    tag: "Merchants",
    summary: "The signed-in user's merchants, with their role in each",
    auth: "session",
    permission: "account.self",
    status: 200,
    response: MembershipsResponse,
    handler: ({ auth }) => listMemberships({ userId: auth.userId }),
  }),
  switchMerchant: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/auth/switch",
    tag: "Merchants",
    summary: "A session in another of the user's merchants; this one ends",
    auth: "session",
    permission: "account.self",
    body: SwitchMerchantBody,
    status: 200,
    response: LoginResponse,
    errors: ["merchant_not_found"],
    example: { merchantId: "0b5c7a2e-4f1d-4c1b-9d3e-2a6f8e9b1c44" },
    handler: ({ auth, body }) =>
      switchMerchant({ sessionId: auth.sessionId, userId: auth.userId, merchantId: body.merchantId }),
  }),
  rollKey: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/keys/roll",
    tag: "Merchants",
    summary: "Replace the secret key of one mode",
    auth: "session",
    permission: "keys.write",
    body: RollKeyBody,
    status: 200,
    response: RollKeyResponse,
    example: { mode: "test" },
    handler: ({ auth, body, clientAddress }) =>
      rollSecretKey({
        merchantId: auth.merchantId,
        mode: body.mode,
        audit: auditContext(auth, clientAddress),
      }),
  }),
  getSettings: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/settings",
    tag: "Merchants",
    summary: "Channels, fees, brand",
    auth: "session",
    permission: "settings.read",
    status: 200,
    response: SettingsResponse,
    handler: ({ auth }) => getSettings({ merchantId: auth.merchantId }),
  }),
  updateSettings: defineEndpoint({
    method: "PUT",
    path: "/v1/merchants/settings",
    tag: "Merchants",
    summary:
      "Change channels, who bears fees, brand colour and logo, the origins that may embed the checkout",
    auth: "session",
    permission: "settings.write",
    body: SettingsBody,
    status: 200,
    response: SettingsResponse,
    example: {
      channels: ["card", "bank_transfer"],
      merchantBearsCost: false,
      brandColor: "#0f766e",
      embedOrigins: ["https://shop.example"],
    },
    handler: ({ auth, body, clientAddress }) =>
      updateSettings({ merchantId: auth.merchantId, ...body, audit: auditContext(auth, clientAddress) }),
  }),
  transactions: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/transactions",
    tag: "Merchants",
    summary: "Transactions of this deployment's mode, newest first",
    auth: "session",
    permission: "payments.read",
    query: TransactionsQuery,
    status: 200,
    response: TransactionListResponse,
    handler: ({ auth, query }) =>
      listTransactions({ merchantId: auth.merchantId, mode: auth.mode, ...query }),
  }),
  getPaystack: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/paystack",
    tag: "Merchants",
    summary: "The merchant's own Paystack account of a mode (never its key)",
    auth: "session",
    permission: "settings.read",
    query: PaystackModeQuery,
    status: 200,
    response: PaystackConnectionResponse,
    handler: ({ auth, query }) => getPaystackConnection({ merchantId: auth.merchantId, mode: query.mode }),
  }),
  connectPaystack: defineEndpoint({
    method: "PUT",
    path: "/v1/merchants/paystack",
    tag: "Merchants",
    summary: "Connect a Paystack account, or replace its key: checked against Paystack once, kept sealed",
    description:
      "The key must be of the mode (`sk_live_…` for live) and is checked with Paystack (GET /balance) before it is kept. It is never shown again: the answer names its last four characters and the two addresses to set in Paystack's dashboard.",
    auth: "session",
    permission: "settings.write",
    body: PaystackConnectBody,
    status: 200,
    response: PaystackConnectionResponse,
    errors: ["processor_error"],
    example: { mode: "live", secretKey: "sk_live_0123456789abcdef0123456789abcdef01234567" },
    handler: ({ auth, body, clientAddress }) =>
      connectPaystack({ merchantId: auth.merchantId, ...body, audit: auditContext(auth, clientAddress) }),
  }),
  disconnectPaystack: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/paystack/disconnect",
    tag: "Merchants",
    summary: "Forget the merchant's Paystack key of a mode",
    auth: "session",
    permission: "settings.write",
    body: PaystackModeBody,
    status: 200,
    response: PaystackConnectionResponse,
    example: { mode: "live" },
    handler: ({ auth, body, clientAddress }) =>
      disconnectPaystack({
        merchantId: auth.merchantId,
        mode: body.mode,
        audit: auditContext(auth, clientAddress),
      }),
  }),
};
