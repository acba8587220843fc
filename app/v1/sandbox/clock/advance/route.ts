// POST /v1/sandbox/clock/advance - test mode: move one transaction's clock forward; what falls due runs at once (secret key).
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.clockAdvance);
