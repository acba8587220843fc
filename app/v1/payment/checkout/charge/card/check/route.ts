// POST /v1/payment/checkout/charge/card/check - ask the card's network where the payment stands (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.cardCheck);
