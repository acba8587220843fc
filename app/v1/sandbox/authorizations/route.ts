// POST /v1/sandbox/authorizations - test mode: the customer approves or declines a bank payment or USSD request.
import { channelsEndpoints } from "@/lib/channels/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(channelsEndpoints.sandboxAuthorizations);
