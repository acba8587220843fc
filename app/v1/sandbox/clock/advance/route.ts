// POST /v1/sandbox/clock/advance - test mode: move one transaction's, saved card's or subscription's clock forward; what falls due runs at once (secret key).
import { routes } from "@/lib/http/routes";
import { subscriptionsEndpoints } from "@/lib/subscriptions/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(subscriptionsEndpoints.clockAdvance);
