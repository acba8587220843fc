// POST /v1/rails/paystack/webhook - Paystack's signed events (charges, transfers, refunds) for every merchant.
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.paystackWebhook);
