// GET /v1/inline.js - the embedded checkout's script for a <script> tag (window.Paygate; lib/inline/script.ts).
import { inlineScriptResponse } from "@/lib/http/inline-script-response";
import { routes, serve } from "@/lib/http/routes";
import { opsEndpoints } from "@/lib/ops/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  serve(opsEndpoints.inlineScript, async (request) => inlineScriptResponse(request, "classic")),
);
