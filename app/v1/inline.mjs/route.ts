// GET /v1/inline.mjs - the embedded checkout's script as an ES module (`import { open }`; lib/inline/script.ts).
import { inlineScriptResponse } from "@/lib/http/inline-script-response";
import { routes, serve } from "@/lib/http/routes";
import { opsEndpoints } from "@/lib/ops/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  serve(opsEndpoints.inlineModule, async (request) => inlineScriptResponse(request, "module")),
);
