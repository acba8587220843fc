// POST /v1/payment/checkout/charge/bank-payment - ask the customer's bank for approval in its app (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.bankPayment);
