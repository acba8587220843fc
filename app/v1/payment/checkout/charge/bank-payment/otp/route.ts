// POST /v1/payment/checkout/charge/bank-payment/otp - the one-time password the customer's bank sent (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.bankPaymentOtp);
