// PUT /dashboard/api/settings - channels, who bears the cost, brand colour and logo (the API's schema and verb).

import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { SettingsBody } from "@/lib/merchants/schemas";
import { updateSettings } from "@/lib/merchants/update-settings";

export const PUT = withConsole({ session: true, body: SettingsBody }, async ({ merchant, body }) => ({
  data: await updateSettings({ merchantId: merchant.merchantId, ...body }),
}));

export const { GET, POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("PUT");
