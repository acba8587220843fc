import { inlineScript } from "@/lib/inline/script";
import { newRequestId } from "@/lib/security/tokens";

/**
 * GET /v1/inline.js and /v1/inline.mjs: the embedded checkout's script (lib/inline/script.ts). Public and
 * cacheable: five minutes fresh, then revalidated by its ETag (the version is in its first line, so a cached
 * copy says which it is); any site may load it, as a classic script or a module (CORS).
 */
export function inlineScriptResponse(request: Request, kind: "classic" | "module"): Response {
  const script = inlineScript();
  const headers = {
    "content-type": "text/javascript; charset=utf-8",
    "cache-control": "public, max-age=300, stale-while-revalidate=86400",
    etag: script.etag,
    "access-control-allow-origin": "*",
    "cross-origin-resource-policy": "cross-origin",
    "x-content-type-options": "nosniff",
    "x-paygate-inline-version": script.version,
    "x-request-id": newRequestId(),
  };
  const seen = request.headers.get("if-none-match");
  if (seen?.split(/\s*,\s*/).some((tag) => tag.replace(/^W\//, "") === script.etag))
    return new Response(null, { status: 304, headers });
  return new Response(script[kind], { headers });
}
