import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { demoMerchantFile } from "@/lib/boot";
import { deploymentMode, env } from "@/lib/env";

/**
 * The demo store (/demo): a tiny merchant integration, written the way a merchant's server would: it holds
 * the demo merchant's test secret key server-side (data/demo-merchant.json, written by lib/boot.ts when it
 * seeds the demo merchant), creates payments through this same server's public API and verifies them over
 * the API on return. Nothing here reaches into the database.
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

type Envelope<T> = { status: "success"; data: T } | { status: "failed"; error: string; message: string };

async function callApi<T>(secretKey: string, path: string, init: RequestInit = {}): Promise<Envelope<T>> {
  const res = await fetch(`${selfBase()}/v1${path}`, {
    ...init,
    headers: { "x-api-key": secretKey, "content-type": "application/json", ...init.headers },
    cache: "no-store",
    signal: AbortSignal.timeout(15_000),
  });
  return (await res.json()) as Envelope<T>;
}

/** POST /v1/payment/initialize for one product; answers the checkout URL to send the customer to. */
export async function createDemoPayment(input: {
  secretKey: string;
  product: DemoProduct;
  email: string;
  customerName?: string;
}): Promise<{ ok: true; checkoutUrl: string } | { ok: false; message: string }> {
  const orderId = `order_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const answer = await callApi<{ checkoutUrl: string }>(input.secretKey, "/payment/initialize", {
    method: "POST",
    headers: { "idempotency-key": orderId },
    body: JSON.stringify({
      amount: input.product.amount,
      email: input.email,
      ...(input.customerName && { customerName: input.customerName }),
      description: input.product.name,
      callbackUrl: `${env().PUBLIC_BASE_URL}/demo/return`,
      // What the store would keep in its own order table: checked against verify before "fulfilling".
      metadata: { orderId, product: input.product.id, orderAmount: input.product.amount },
    }),
  });
  if (answer.status !== "success") {
    return {
      ok: false,
      message:
        answer.error === "invalid_api_key"
          ? `The demo key in ${env().DEMO_MERCHANT_FILE} does not belong to this database. Stop the server, delete ${env().DEMO_MERCHANT_FILE} and start on an empty database to create the demo merchant again.`
          : answer.message,
    };
  }
  return { ok: true, checkoutUrl: answer.data.checkoutUrl };
}

export type VerifiedPayment = {
  reference: string;
  amount: string;
  total: string | null;
  currency: string;
  status: string;
  channel: string | null;
  fees: string | null;
  paidAt: string | null;
  metadata: { orderId?: string; product?: string; orderAmount?: string };
};

/** GET /v1/payment/verify/{reference}: the only answer the store fulfils on. */
export async function verifyDemoPayment(input: {
  secretKey: string;
  reference: string;
}): Promise<{ ok: true; payment: VerifiedPayment } | { ok: false; message: string }> {
  if (!/^PAY_TXN_[0-9A-Za-z]{1,64}$/.test(input.reference))
    return { ok: false, message: "The return address has no valid payment reference." };
  const answer = await callApi<VerifiedPayment>(
    input.secretKey,
    `/payment/verify/${encodeURIComponent(input.reference)}`,
  );
  if (answer.status !== "success") return { ok: false, message: answer.message };
  return { ok: true, payment: answer.data };
}
