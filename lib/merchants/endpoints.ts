import { defineEndpoint, withHeaders } from "@/lib/core/endpoint";
import { listTransactions } from "@/lib/payments/list-transactions";
import { TransactionListResponse } from "@/lib/payments/responses";
import { deviceCookieOf } from "@/lib/security/known-device";
import { connectPaystack } from "./connect-paystack";
import { apiDeviceCookie, DeviceCookieHeaders } from "./device-cookie-header";
import { disconnectPaystack } from "./disconnect-paystack";
import { getPaystackConnection } from "./get-paystack-connection";
import { getSettings } from "./get-settings";
import { loginMerchant } from "./login-merchant";
import { logoutMerchant } from "./logout-merchant";
import {
  LoginResponse,
  LogoutResponse,
  PaystackConnectionResponse,
  RollKeyResponse,
  SettingsResponse,
  SignupResponse,
} from "./responses";
import { rollSecretKey } from "./roll-secret-key";
import {
  LoginBody,
  PaystackConnectBody,
  PaystackModeBody,
  PaystackModeQuery,
  RollKeyBody,
  SettingsBody,
  SignupBody,
  TransactionsQuery,
} from "./schemas";
import { signupMerchant } from "./signup-merchant";
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
    response: LoginResponse,
    errors: ["invalid_credentials"],
    example: { email: "ada@example.com", password: "correct horse battery staple" },
    description:
      "A client that keeps the device cookie this answers (Set-Cookie) and sends it back is let in with a right password even while guesses from elsewhere have the account locked (429 for other clients).",
    responseHeaders: DeviceCookieHeaders,
    handler: async ({ body, clientAddress, headers }) => {
      const { device, ...session } = await loginMerchant({
        ...body,
        clientAddress,
        deviceCookie: deviceCookieOf(headers.get("cookie")),
      });
      return withHeaders(session, { "set-cookie": apiDeviceCookie(device, headers) });
    },
  }),
  logout: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/auth/logout",
    tag: "Merchants",
    summary: "End this session",
    auth: "session",
    status: 200,
    response: LogoutResponse,
    handler: ({ auth }) => logoutMerchant({ sessionId: auth.sessionId }),
  }),
  rollKey: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/keys/roll",
    tag: "Merchants",
    summary: "Replace the secret key of one mode",
    auth: "session",
    body: RollKeyBody,
    status: 200,
    response: RollKeyResponse,
    example: { mode: "test" },
    handler: ({ auth, body }) => rollSecretKey({ merchantId: auth.merchantId, mode: body.mode }),
  }),
  getSettings: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/settings",
    tag: "Merchants",
    summary: "Channels, fees, brand",
    auth: "session",
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
    body: SettingsBody,
    status: 200,
    response: SettingsResponse,
    example: {
      channels: ["card", "bank_transfer"],
      merchantBearsCost: false,
      brandColor: "#0f766e",
      embedOrigins: ["https://shop.example"],
    },
    handler: ({ auth, body }) => updateSettings({ merchantId: auth.merchantId, ...body }),
  }),
  transactions: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/transactions",
    tag: "Merchants",
    summary: "Transactions of this deployment's mode, newest first",
    auth: "session",
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
    body: PaystackConnectBody,
    status: 200,
    response: PaystackConnectionResponse,
    errors: ["processor_error"],
    example: { mode: "live", secretKey: "sk_live_0123456789abcdef0123456789abcdef01234567" },
    handler: ({ auth, body }) => connectPaystack({ merchantId: auth.merchantId, ...body }),
  }),
  disconnectPaystack: defineEndpoint({
    method: "POST",
    path: "/v1/merchants/paystack/disconnect",
    tag: "Merchants",
    summary: "Forget the merchant's Paystack key of a mode",
    auth: "session",
    body: PaystackModeBody,
    status: 200,
    response: PaystackConnectionResponse,
    example: { mode: "live" },
    handler: ({ auth, body }) => disconnectPaystack({ merchantId: auth.merchantId, mode: body.mode }),
  }),
};
