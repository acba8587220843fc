// GET /v1/health - 200 when this instance can reach its database, 503 when not or while it shuts down.
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { checkHealth } from "@/lib/ops/check-health";

export const dynamic = "force-dynamic";

export const GET = withApi({ auth: "none" }, async () => ({ data: await checkHealth() }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
