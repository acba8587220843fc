// POST /v1/payment/checkout/charge/card/address - the card's billing address, for address verification (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.cardAddress);
