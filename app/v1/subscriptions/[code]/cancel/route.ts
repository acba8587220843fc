// POST /v1/subscriptions/{code}/cancel - cancel at once or at the end of the period (secret key).
import { routes } from "@/lib/http/routes";
import { subscriptionsEndpoints } from "@/lib/subscriptions/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(subscriptionsEndpoints.cancelSubscription);
