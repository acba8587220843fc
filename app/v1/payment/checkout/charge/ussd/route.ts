// POST /v1/payment/checkout/charge/ussd - a code for the customer to dial (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.ussd);
