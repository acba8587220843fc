// POST /v1/sandbox/transfers - test mode: an inbound transfer to a virtual account, as the bank rail reports it.
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.sandboxTransfers);
