// POST /v1/sandbox/transfers - test mode: an inbound transfer to a virtual account, as the bank rail reports it.
import { sandboxTransfer } from "@/lib/channels/sandbox-transfer";
import { SandboxTransferBody } from "@/lib/channels/schemas";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "secret_key", body: SandboxTransferBody }, async ({ auth, body }) => ({
  data: await sandboxTransfer({ principal: auth, ...body }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
