// POST /v1/payment/checkout/charge/bank-transfer/simulate - test mode: fund, fail or abandon (access code).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.simulateBankTransfer);
