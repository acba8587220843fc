// POST /v1/payment/checkout/charge/bank-payment/check - ask the bank payment's rail where it stands (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.bankPaymentCheck);
