// POST /v1/payment/checkout/charge/bank-payment/phone - the phone number the customer's bank asks for (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.bankPaymentPhone);
