// POST /v1/payment/checkout/charge/card/otp - finish a card payment that asked for a one-time password (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.cardOtp);
