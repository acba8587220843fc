import { auditEndpoints } from "@/lib/audit/endpoints";
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { checkoutEndpoints } from "@/lib/checkout/endpoints";
import type { Endpoint } from "@/lib/core/endpoint";
import { customersEndpoints } from "@/lib/customers/endpoints";
import { linksEndpoints } from "@/lib/links/endpoints";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";
import { opsEndpoints } from "@/lib/ops/endpoints";
import { paymentsEndpoints } from "@/lib/payments/endpoints";
import { refundsEndpoints } from "@/lib/refunds/endpoints";
import { subscriptionsEndpoints } from "@/lib/subscriptions/endpoints";
import { teamEndpoints } from "@/lib/team/endpoints";
import { webhooksEndpoints } from "@/lib/webhooks/endpoints";

/**
 * The registry: every endpoint of the API, from each area's one definition file (lib/<area>/endpoints.ts).
 * The OpenAPI document, the input sweeps (tests/malformed*) and the wiring test read this list; the route files
 * import their area's definitions directly.
 */
export const ENDPOINTS: readonly Endpoint[] = [
  paymentsEndpoints,
  channelsEndpoints,
  checkoutEndpoints,
  refundsEndpoints,
  customersEndpoints,
  subscriptionsEndpoints,
  webhooksEndpoints,
  merchantsEndpoints,
  teamEndpoints,
  auditEndpoints,
  linksEndpoints,
  opsEndpoints,
].flatMap((area): Endpoint[] => Object.values(area));
