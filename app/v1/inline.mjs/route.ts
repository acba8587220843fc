// GET /v1/inline.mjs - the embedded checkout's script as an ES module (`import { open }`; lib/inline/script.ts).
import { inlineScriptResponse } from "@/lib/http/inline-script-response";
import { methodsNotAllowed } from "@/lib/http/with-api";

export function GET(request: Request): Response {
  return inlineScriptResponse(request, "module");
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
