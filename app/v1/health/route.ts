// GET /v1/health - 200 when this instance can reach its database, 503 when not or while it shuts down.
import { routes } from "@/lib/http/routes";
import { opsEndpoints } from "@/lib/ops/endpoints";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(opsEndpoints.health);
