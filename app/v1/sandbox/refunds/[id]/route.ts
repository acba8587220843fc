// POST /v1/sandbox/refunds/{id} - test mode: the sandbox bank settles a pending refund now.
import { routes } from "@/lib/http/routes";
import { refundsEndpoints } from "@/lib/refunds/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(refundsEndpoints.sandboxSettle);
