import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { db } from "@/lib/db/client";
import { deploymentMode, env } from "@/lib/env";
import type { Locale } from "@/lib/i18n/locales";
import { authenticateSecretKey } from "@/lib/merchants/authenticate-secret-key";
import { demoMerchantFile } from "@/lib/merchants/demo-merchant-file";
import { demoMerchantKey } from "@/lib/merchants/demo-merchant-key";
import { checkEmbedOrigin, parseEmbedOrigins, serializeEmbedOrigins } from "@/lib/merchants/embed-origins";
import { Paygate, PaygateError, type Types } from "@/sdk/node/dist/index.js";

/**
 * The demo store (/demo): a tiny merchant integration, written the way a merchant's server would: it holds
 * the demo merchant's test secret key server-side, creates payments through this same server's public API
 * and verifies them over the API on return. The key is the one kept with the database
 * (lib/merchants/demo-merchant-key.ts: sealed, and rolled with the merchant's key), or on a database seeded
 * before that, the one in DEMO_MERCHANT_FILE.
 */

export const DEMO_PRODUCTS = [
  { id: "tote", name: "Ankara tote bag", amount: "5000.00" },
  { id: "coffee", name: "Coffee beans, 1 kg", amount: "12500.00" },
  { id: "sneakers", name: "Canvas sneakers", amount: "38999.99" },
] as const;

export type DemoProduct = (typeof DEMO_PRODUCTS)[number];

export type DemoKey =
  | { ok: true; secretKey: string }
  | { ok: false; reason: "live_mode" | "missing" | "unreadable" };

/** The demo merchant's test secret key, or why there is none. Staging (test mode) only. */
export async function demoKey(): Promise<DemoKey> {
  if (deploymentMode() !== "test") return { ok: false, reason: "live_mode" };
  const kept = await demoMerchantKey();
  if (kept) return { ok: true, secretKey: kept };
  let text: string;
  try {
    text = await readFile(demoMerchantFile(), "utf8");
  } catch {
    return { ok: false, reason: "missing" };
  }
  try {
    const parsed = JSON.parse(text) as { testSecretKey?: unknown };
    if (typeof parsed.testSecretKey === "string" && /^sk_test_[0-9A-Za-z]{20,}$/.test(parsed.testSecretKey))
      return { ok: true, secretKey: parsed.testSecretKey };
  } catch {}
  return { ok: false, reason: "unreadable" };
}

/** This server's own address for calls to its API (loopback when it listens on every interface). */
function selfBase(): string {
  const { HOSTNAME, PORT } = env();
  const host = ["0.0.0.0", "::", "", "localhost"].includes(HOSTNAME) ? "127.0.0.1" : HOSTNAME;
  return `http://${host.includes(":") ? `[${host}]` : host}:${PORT}`;
}

/**
 * The store's client of the API: the server SDK merchants install (@paygate/node, sdk/node), generated from
 * the OpenAPI document at build time, so the document is exercised by real code and a change it does not
 * describe fails the type check. One quick retry: the store answers a customer who is waiting.
 */
function paygate(secretKey: string) {
  return new Paygate({ secretKey, baseUrl: `${selfBase()}/v1`, timeoutMs: 15_000, maxRetries: 1 });
}

/** POST /v1/payment/initialize for one product; answers the checkout URL to send the customer to. */
export async function createDemoPayment(input: {
  secretKey: string;
  product: DemoProduct;
  email: string;
  customerName?: string;
  /** The product's name in the customer's language, and that language (the checkout opens in it). */
  productName?: string;
  locale?: Locale;
}): Promise<{ ok: true; checkoutUrl: string; accessCode: string } | { ok: false; message: string }> {
  const orderId = `order_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  try {
    const session = await paygate(input.secretKey).payments.initialize(
      {
        amount: input.product.amount,
        email: input.email,
        ...(input.customerName && { customerName: input.customerName }),
        // The store writes its order in the customer's language, and asks for checkout in it too.
        description: input.productName ?? input.product.name,
        callbackUrl: `${env().PUBLIC_BASE_URL}/demo/return${input.locale ? `?lang=${input.locale}` : ""}`,
        ...(input.locale && { locale: input.locale }),
        // What the store would keep in its own order table: checked against verify before "fulfilling".
        metadata: { orderId, product: input.product.id, orderAmount: input.product.amount },
      },
      { idempotencyKey: orderId },
    );
    return { ok: true, checkoutUrl: session.checkoutUrl, accessCode: session.accessCode };
  } catch (err) {
    if (!(err instanceof PaygateError)) throw err;
    return {
      ok: false,
      message:
        err.code === "invalid_api_key"
          ? `The demo merchant's key is not a key of this database (a database seeded before the key was kept in it reads it from ${env().DEMO_MERCHANT_FILE}). Start on an empty database to create the demo merchant again.`
          : err.message || "The payment could not be created.",
    };
  }
}

/** Verify's answer as the document describes it; the store reads its own keys from `metadata`. */
export type VerifiedPayment = Types.VerifiedTransaction & {
  metadata: { orderId?: string; product?: string; orderAmount?: string };
};

/** GET /v1/payment/verify/{reference}: the only answer the store fulfils on. */
export async function verifyDemoPayment(input: {
  secretKey: string;
  reference: string;
}): Promise<{ ok: true; payment: VerifiedPayment } | { ok: false; message: string }> {
  if (!/^PAY_TXN_[0-9A-Za-z]{1,64}$/.test(input.reference))
    return { ok: false, message: "The return address has no valid payment reference." };
  try {
    const payment = await paygate(input.secretKey).payments.verify(input.reference);
    return { ok: true, payment: payment as VerifiedPayment };
  } catch (err) {
    if (!(err instanceof PaygateError)) throw err;
    return { ok: false, message: err.message || "The payment could not be verified." };
  }
}

/**
 * "Pay in a popup": the store's pages are this server's own (PUBLIC_BASE_URL), so the demo merchant lists
 * that origin among its embed origins, as a merchant lists its shop's in the console. Answers false when the
 * origin cannot be one (http on a host other than localhost or 127.0.0.1).
 */
export async function allowDemoStoreToEmbed(input: { secretKey: string }): Promise<boolean> {
  const checked = checkEmbedOrigin(new URL(env().PUBLIC_BASE_URL).origin);
  if (!checked.ok) return false;
  const { merchantId } = await authenticateSecretKey({ key: input.secretKey });
  const row = await db()
    .selectFrom("merchants")
    .select("embed_origins")
    .where("id", "=", merchantId)
    .executeTakeFirst();
  const origins = parseEmbedOrigins(row?.embed_origins ?? null);
  if (origins.includes(checked.origin)) return true;
  await db()
    .updateTable("merchants")
    .set({ embed_origins: serializeEmbedOrigins([...origins, checked.origin]), updated_at: Date.now() })
    .where("id", "=", merchantId)
    .execute();
  return true;
}
