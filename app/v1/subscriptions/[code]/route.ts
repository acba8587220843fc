// GET /v1/subscriptions/{code} - one subscription; PATCH - its plan (from the next period) or card (secret key).
import { routes } from "@/lib/http/routes";
import { subscriptionsEndpoints } from "@/lib/subscriptions/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  subscriptionsEndpoints.getSubscription,
  subscriptionsEndpoints.updateSubscription,
);
