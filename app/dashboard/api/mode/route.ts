// POST /dashboard/api/mode {mode} - switch the console between test and live data.
import { z } from "zod";
import { MODE_COOKIE, modeCookieOptions } from "@/lib/console/cookies";
import { withConsole } from "@/lib/console/with-console";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { ModeSchema } from "@/lib/merchants/schemas";

export const POST = withConsole(
  { session: true, body: z.strictObject({ mode: ModeSchema }) },
  async ({ body, https }) => ({
    data: { mode: body.mode },
    cookies: [{ name: MODE_COOKIE, value: body.mode, options: modeCookieOptions(https) }],
  }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
