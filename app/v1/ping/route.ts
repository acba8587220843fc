// GET /v1/ping - liveness: a constant answer (also the framework-ceiling reference of `npm run bench`).
import { newRequestId } from "@/lib/security/tokens";

const BODY = JSON.stringify({ status: "success", data: { ok: true } });

export function GET(): Response {
  return new Response(BODY, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      // Every answer carries one (docs/api.md); the same id source as withApi, so the ceiling does that work too.
      "x-request-id": newRequestId(),
    },
  });
}

export const dynamic = "force-dynamic";
