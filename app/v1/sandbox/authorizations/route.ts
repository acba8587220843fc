// POST /v1/sandbox/authorizations - test mode: the customer approves or declines a bank payment or USSD request.
import { sandboxAuthorize } from "@/lib/channels/sandbox-authorize";
import { SandboxAuthorizationBody } from "@/lib/channels/schemas";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi(
  { auth: "secret_key", body: SandboxAuthorizationBody },
  async ({ auth, body }) => ({
    data: await sandboxAuthorize({ principal: auth, ...body }),
  }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
