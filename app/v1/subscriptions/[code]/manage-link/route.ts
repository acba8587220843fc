// POST /v1/subscriptions/{code}/manage-link - a link to the customer's own page of the subscription (secret key).
import { routes } from "@/lib/http/routes";
import { subscriptionsEndpoints } from "@/lib/subscriptions/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(subscriptionsEndpoints.manageLink);
