// GET /v1/inline.js - the embedded checkout's script for a <script> tag (window.Paygate; lib/inline/script.ts).
import { inlineScriptResponse } from "@/lib/http/inline-script-response";
import { methodsNotAllowed } from "@/lib/http/with-api";

export function GET(request: Request): Response {
  return inlineScriptResponse(request, "classic");
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
