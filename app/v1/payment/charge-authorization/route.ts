// POST /v1/payment/charge-authorization - charge a saved card with the customer away (secret key).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.chargeAuthorization);
