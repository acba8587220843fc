// POST /v1/sandbox/clock/advance - test mode: move one transaction's clock forward; what falls due runs at once (secret key).
import { advanceClock } from "@/lib/channels/advance-clock";
import { ClockAdvanceBody } from "@/lib/channels/schemas";
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";

export const POST = withApi({ auth: "secret_key", body: ClockAdvanceBody }, async ({ auth, body }) => ({
  data: await advanceClock({ principal: auth, ...body }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
