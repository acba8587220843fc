// GET /v1/openapi.json - the API's OpenAPI 3.1 document, generated from the same zod schemas the routes use.
import { env } from "@/lib/env";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { openApiDocument } from "@/lib/openapi/document";
import { newRequestId } from "@/lib/security/tokens";

export function GET(): Response {
  return new Response(JSON.stringify(openApiDocument(env().PUBLIC_BASE_URL, env().PAYMENTS_ENV)), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "public, max-age=300",
      "access-control-allow-origin": "*",
      "x-request-id": newRequestId(),
    },
  });
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
