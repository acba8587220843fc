// POST /v1/payment/checkout/charge/card/pin - the card's PIN, when its network asks for one (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.cardPin);
