// POST /v1/payment/checkout/charge/bank-transfer - issue (or repeat) the one-time virtual account (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.bankTransfer);
