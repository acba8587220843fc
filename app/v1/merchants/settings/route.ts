// GET/PUT /v1/merchants/settings - channels enabled, who bears fees, brand colour and logo (session token).
import { methodsNotAllowed, withApi } from "@/lib/http/with-api";
import { getSettings } from "@/lib/merchants/get-settings";
import { SettingsBody } from "@/lib/merchants/schemas";
import { updateSettings } from "@/lib/merchants/update-settings";

export const GET = withApi({ auth: "session" }, async ({ auth }) => ({
  data: await getSettings({ merchantId: auth.merchantId }),
}));

export const PUT = withApi({ auth: "session", body: SettingsBody }, async ({ auth, body }) => ({
  data: await updateSettings({ merchantId: auth.merchantId, ...body }),
}));

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "PUT");
