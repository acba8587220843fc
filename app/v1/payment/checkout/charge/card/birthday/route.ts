// POST /v1/payment/checkout/charge/card/birthday - the date of birth the card's network asks for (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.cardBirthday);
