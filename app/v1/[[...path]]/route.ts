// ANY /v1/* - unknown API paths answer a 404 envelope instead of the HTML not-found page.
import { failureBody, jsonResponse } from "@/lib/http/envelope";
import { randomString } from "@/lib/security/tokens";

function notFound(request: Request): Response {
  const path = new URL(request.url).pathname;
  const response = jsonResponse(
    404,
    failureBody(
      "route_not_found",
      `No endpoint ${request.method} ${path.slice(0, 200)}; see the API reference at /docs.`,
    ),
  );
  response.headers.set("x-request-id", `req_${randomString(20)}`);
  return response;
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
