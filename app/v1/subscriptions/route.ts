// POST /v1/subscriptions - subscribe a customer with a saved card; GET - the merchant's subscriptions (secret key).
import { routes } from "@/lib/http/routes";
import { subscriptionsEndpoints } from "@/lib/subscriptions/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  subscriptionsEndpoints.listSubscriptions,
  subscriptionsEndpoints.createSubscription,
);
