import type { Endpoint } from "@/lib/core/endpoint";
import { ENDPOINTS } from "@/lib/endpoints";
import type { Expect } from "./malformed-cases";
import { UNKNOWN_REFERENCE } from "./malformed-sweep";

export const UNKNOWN_SLUG = "no-such-link-000000";
export const UNKNOWN_EVENT = `evt_${"Z".repeat(24)}`;
export const UNKNOWN_REFUND = `rfd_${"Z".repeat(24)}`;
export const UNKNOWN_CUSTOMER = `CUS_${"0".repeat(20)}`;
export const UNKNOWN_AUTHORIZATION = `AUTH_${"0".repeat(20)}`;

/** The malformed-input suite that sweeps a path's wrong methods: every registry path is swept by one. */
export type Sweep = "malformed" | "malformed-channels" | "malformed-refunds" | "malformed-customers";

export function sweepOf(path: string): Sweep {
  if (path.includes("/refunds")) return "malformed-refunds";
  if (
    path.includes("/customers") ||
    path.includes("/authorizations/") ||
    path === "/v1/payment/charge-authorization"
  )
    return "malformed-customers";
  if (
    path.startsWith("/v1/payment/checkout/charge/") ||
    path.startsWith("/v1/payment/checkout/cancel") ||
    path.startsWith("/v1/payment/checkout/sandbox/") ||
    path.startsWith("/v1/sandbox/") ||
    path.startsWith("/v1/merchants/webhook") ||
    path.startsWith("/v1/merchants/events") ||
    path.startsWith("/v1/merchants/payment-links")
  )
    return "malformed-channels";
  return "malformed";
}

/** A well-formed value nothing has, for a path parameter: the wrong methods are refused before it is looked up. */
function unknownParam(path: string, name: string): string {
  if (name === "reference") return UNKNOWN_REFERENCE;
  if (name === "slug") return UNKNOWN_SLUG;
  if (name === "code" && path.includes("/plans/")) return `PLN_${"0".repeat(20)}`;
  if (name === "code" && path.includes("/subscriptions/")) return `SUB_${"0".repeat(20)}`;
  if (name === "code") return path.includes("/authorizations/") ? UNKNOWN_AUTHORIZATION : UNKNOWN_CUSTOMER;
  if (name === "id") return path.includes("/refunds/") ? UNKNOWN_REFUND : UNKNOWN_EVENT;
  throw new Error(`no unknown value for {${name}} of ${path}: add one`);
}

/**
 * The registry's paths a suite sweeps, each with the methods its endpoints serve and what HEAD answers (as GET
 * would: 401 behind credentials, 403 behind an address allow-list the test servers leave empty, 404 for a public
 * one whose parameter finds nothing, 200 for a public one without; 405 without a GET): arguments of `methodCases`.
 */
export function registryRoutes(sweep: Sweep): Array<[string, string[], Expect | "served"]> {
  const byPath = new Map<string, Endpoint[]>();
  for (const endpoint of ENDPOINTS) {
    if (sweepOf(endpoint.path) !== sweep) continue;
    byPath.set(endpoint.path, [...(byPath.get(endpoint.path) ?? []), endpoint]);
  }
  return [...byPath].map(([path, endpoints]) => {
    const allowed = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) =>
      endpoints.some((e) => e.method === m),
    );
    const get = endpoints.find((e) => e.method === "GET");
    const head: Expect | "served" = !get
      ? { status: 405 }
      : get.auth !== "none"
        ? { status: 401 }
        : // A public GET behind an operator's own gate (GET /v1/metrics), on test servers that open it to nobody.
          get.errors?.includes("address_not_allowed")
          ? { status: 403 }
          : get.params
            ? { status: 404 }
            : "served";
    return [path.replace(/\{(\w+)\}/g, (_, name: string) => unknownParam(path, name)), allowed, head];
  });
}
