// GET /v1/openapi.json - the API's OpenAPI 3.1 document, generated from the endpoint registry (lib/endpoints.ts).
import { env } from "@/lib/env";
import { routes, serve } from "@/lib/http/routes";
import { openApiDocument } from "@/lib/openapi/document";
import { opsEndpoints } from "@/lib/ops/endpoints";
import { newRequestId } from "@/lib/security/tokens";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  serve(
    opsEndpoints.openapi,
    async () =>
      new Response(JSON.stringify(openApiDocument(env().PUBLIC_BASE_URL, env().PAYMENTS_ENV)), {
        headers: {
          "content-type": "application/json; charset=utf-8",
          "cache-control": "public, max-age=300",
          "access-control-allow-origin": "*",
          "x-request-id": newRequestId(),
        },
      }),
  ),
);
