// POST /v1/payment/checkout/cancel - the customer cancels; the transaction ends abandoned (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.cancel);
