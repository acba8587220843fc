// POST /v1/payment/checkout/charge/card - pay by card: success, failed (with reason) or awaiting_otp (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.card);
