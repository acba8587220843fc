// POST /dashboard/api/mode {mode} - switch the console between test and live data.
import { z } from "zod";
import { MODE_COOKIE, modeCookieOptions } from "@/lib/console/cookies";
import { ModeSchema } from "@/lib/core/schemas";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";

export const POST = withConsole(
  { session: true, permission: "account.self", body: z.strictObject({ mode: ModeSchema }) },
  async ({ body, https }) => ({
    data: { mode: body.mode },
    cookies: [{ name: MODE_COOKIE, value: body.mode, options: modeCookieOptions(https) }],
  }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
