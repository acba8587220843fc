// GET /v1/ping - liveness: a constant answer (also the framework-ceiling reference of `npm run bench`).
const BODY = JSON.stringify({ status: "success", data: { ok: true } });

export function GET(): Response {
  return new Response(BODY, {
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

export const dynamic = "force-dynamic";
