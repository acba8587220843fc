// POST /dashboard/api/keys/roll {mode} - a new secret key for the mode; the old one stops working at once.

import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { rollSecretKey } from "@/lib/merchants/roll-secret-key";
import { RollKeyBody } from "@/lib/merchants/schemas";

export const POST = withConsole({ session: true, body: RollKeyBody }, async ({ merchant, body }) => ({
  data: await rollSecretKey({ merchantId: merchant.merchantId, mode: body.mode }),
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
