// What the API benches set up before they load a server: a merchant, and transactions to verify.

type Json = Record<string, unknown>;

export async function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, {
    method: init.method ?? "GET",
    headers: { ...(init.body !== undefined && { "content-type": "application/json" }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: Json;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = { raw: text.slice(0, 500) };
  }
  return { status: res.status, body };
}

export function expectStatus(what: string, got: { status: number; body: Json }, status: number) {
  if (got.status !== status) {
    throw new Error(
      `${what}: expected ${status}, got ${got.status}: ${JSON.stringify(got.body).slice(0, 500)}`,
    );
  }
}

/** Sign up a merchant through the API; its test secret key. */
export async function signupMerchant(url: string, email: string): Promise<string> {
  const signup = await request(`${url}/v1/merchants/auth/signup`, {
    method: "POST",
    body: { businessName: "Bench Store", email, password: "bench-password-123" },
  });
  expectStatus(`signup on ${url}`, signup, 201);
  const key = (signup.body.data as { keys?: { test?: { secretKey?: unknown } } } | undefined)?.keys?.test
    ?.secretKey;
  if (typeof key !== "string") throw new Error(`signup on ${url}: no data.keys.test.secretKey`);
  return key;
}

export const INITIALIZE_BODY = { amount: "5000.00", email: "c@example.com" };

/** Transactions to verify against (autocannon cycles through them), after checking both routes answer. */
export async function createReferences(name: string, url: string, secretKey: string, count: number) {
  const headers = { "x-api-key": secretKey };
  const references: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await request(`${url}/v1/payment/initialize`, {
      method: "POST",
      headers,
      body: INITIALIZE_BODY,
    });
    expectStatus(`${name} initialize`, res, 201);
    const reference = (res.body.data as { reference?: unknown } | undefined)?.reference;
    if (typeof reference !== "string") throw new Error(`${name} initialize: no data.reference`);
    references.push(reference);
  }
  const check = await request(`${url}/v1/payment/verify/${references[0]}`, { headers });
  expectStatus(`${name} verify`, check, 200);
  return references;
}

/** autocannon options: initialize against one URL or several (connections spread over them). */
export function initializeLoad(urls: string | string[], key: string) {
  return {
    url: Array.isArray(urls)
      ? urls.map((u) => `${u}/v1/payment/initialize`)
      : `${urls}/v1/payment/initialize`,
    method: "POST" as const,
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify(INITIALIZE_BODY),
  };
}

/** autocannon options: verify, cycling through `refs`. */
export function verifyLoad(url: string, key: string, refs: string[]) {
  return {
    url,
    requests: refs.map((ref) => ({
      method: "GET" as const,
      path: `/v1/payment/verify/${ref}`,
      headers: { "x-api-key": key },
    })),
  };
}
