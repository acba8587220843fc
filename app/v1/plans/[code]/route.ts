// GET /v1/plans/{code} - one plan; PATCH - rename, reprice or deactivate it (secret key).
import { routes } from "@/lib/http/routes";
import { subscriptionsEndpoints } from "@/lib/subscriptions/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  subscriptionsEndpoints.getPlan,
  subscriptionsEndpoints.updatePlan,
);
