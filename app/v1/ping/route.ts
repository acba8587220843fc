// GET /v1/ping - liveness: a constant answer (also the framework-ceiling reference of `npm run bench`).
import { routes, serve } from "@/lib/http/routes";
import { opsEndpoints } from "@/lib/ops/endpoints";
import { newRequestId } from "@/lib/security/tokens";

const BODY = JSON.stringify({ status: "success", data: { ok: true } });

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  serve(
    opsEndpoints.ping,
    async () =>
      new Response(BODY, {
        headers: {
          "content-type": "application/json; charset=utf-8",
          "cache-control": "no-store",
          // Every answer carries one (docs/api.md); the same id source as withApi, so the ceiling does that work too.
          "x-request-id": newRequestId(),
        },
      }),
  ),
);
