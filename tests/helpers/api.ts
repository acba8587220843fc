import { randomBytes, randomInt } from "node:crypto";
import { inject } from "vitest";
import type { Target } from "../setup/servers";
import { checkContract } from "./contract";

/** HTTP helpers for integration tests: every call goes over the network to a real server process. */
export type ApiResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

export const targets: Target[] = inject("targets");
export const production: Target = inject("production");

/** A fresh client address per call site, so per-address rate limits of one test never touch another's. */
export function randomAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

export type Client = ReturnType<typeof client>;

export function client(
  baseUrl: string,
  defaults: { address?: string; headers?: Record<string, string> } = {},
) {
  const address = defaults.address ?? randomAddress();
  async function request<T = any>(
    method: string,
    path: string,
    options: {
      body?: unknown;
      raw?: string | Uint8Array;
      headers?: Record<string, string>;
      /** For the few tests that send what no client could (raw bytes the document cannot describe). */
      skipContract?: boolean;
    } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {
      "x-forwarded-for": address,
      ...defaults.headers,
      ...options.headers,
    };
    let body: string | Uint8Array | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body: body as BodyInit | undefined });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!options.skipContract) await checkContract(baseUrl, method, path, res.status, parsed);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }
  return {
    baseUrl,
    address,
    request,
    get: <T = any>(path: string, headers?: Record<string, string>) => request<T>("GET", path, { headers }),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      request<T>("POST", path, { body, headers }),
    put: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      request<T>("PUT", path, { body, headers }),
  };
}

export type Merchant = {
  id: string;
  email: string;
  password: string;
  accessToken: string;
  testKey: string;
  liveKey: string;
};

export function uniqueEmail(tag = "m"): string {
  return `${tag}-${randomBytes(6).toString("hex")}@example.com`;
}

/**
 * A new merchant through the API. Each signup comes from an address of its own: signups are rate limited
 * per address (20 at once), and a test file signs up many merchants through one client.
 */
export async function signup(api: Client, overrides: { businessName?: string } = {}): Promise<Merchant> {
  const email = uniqueEmail();
  const password = "correct horse battery staple";
  const res = await api.post(
    "/v1/merchants/auth/signup",
    { businessName: overrides.businessName ?? "Test Shop", email, password },
    { "x-forwarded-for": randomAddress() },
  );
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
  const d = res.body.data;
  return {
    id: d.merchant.id,
    email,
    password,
    accessToken: d.accessToken,
    testKey: d.keys.test.secretKey,
    liveKey: d.keys.live.secretKey,
  };
}

export async function initialize(api: Client, key: string, body: Record<string, unknown>) {
  return api.post("/v1/payment/initialize", body, { "x-api-key": key });
}

/** Assert-friendly view of a failure envelope. */
export function failure(res: ApiResponse) {
  return { status: res.status, error: res.body?.error as string | undefined };
}
