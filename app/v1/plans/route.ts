// POST /v1/plans - create a plan; GET /v1/plans - the merchant's plans (secret key).
import { routes } from "@/lib/http/routes";
import { subscriptionsEndpoints } from "@/lib/subscriptions/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  subscriptionsEndpoints.listPlans,
  subscriptionsEndpoints.createPlan,
);
