// POST /v1/merchants/keys/roll - replace the secret key of one mode; the old one stops working (session token).
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { rollSecretKey } from "@/lib/merchants/roll-secret-key";
import { RollKeyBody } from "@/lib/merchants/schemas";

export const POST = withApi({ auth: "session", body: RollKeyBody }, async ({ auth, body }) => ({
  data: await rollSecretKey({ merchantId: auth.merchantId, mode: body.mode }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
