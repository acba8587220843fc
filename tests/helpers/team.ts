import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Target } from "../setup/servers";
import { type Client, randomAddress, uniqueEmail } from "./api";

/** The emails a test server sent (staging without SMTP_URL writes them as .eml files: lib/receipts/account-mail.ts). */
export function mailsTo(target: Target, to: string): string[] {
  if (!target.mailDir) throw new Error(`${target.name} has no mail folder`);
  let names: string[] = [];
  try {
    names = readdirSync(target.mailDir)
      .filter((f) => f.startsWith("account-"))
      .sort();
  } catch {
    return [];
  }
  return (
    names
      .map((f) => readFileSync(join(target.mailDir as string, f), "utf8"))
      // Quoted-printable soft line breaks and escapes, so links read whole.
      .map((raw) => raw.replace(/=\r?\n/g, "").replace(/=3D/g, "="))
      .filter((text) => new RegExp(`^To: ${to.replace(/[.+]/g, "\\$&")}\\s*$`, "mi").test(text))
  );
}

/** The last link of `kind` (`invitations`, `reset-password`, `confirm-email`) emailed to `to`: its token. */
export function lastLinkToken(target: Target, to: string, kind: string): string {
  const links = mailsTo(target, to).flatMap((text) => [
    ...text.matchAll(new RegExp(`/dashboard/${kind}/((?:inv|pwr|eml)_[0-9A-Za-z]{43})`, "g")),
  ]);
  const token = links.at(-1)?.[1];
  if (!token) throw new Error(`no ${kind} link emailed to ${to}`);
  return token;
}

export type Member = { email: string; password: string; accessToken: string; id: string };

/** A new member of `owner`'s team with `role`: invited by the owner, joined through the emailed link. */
export async function addMember(
  api: Client,
  target: Target,
  ownerToken: string,
  role: string,
  email = uniqueEmail(role),
): Promise<Member> {
  const auth = { authorization: `Bearer ${ownerToken}` };
  const invited = await api.post("/v1/merchants/team/invitations", { email, role }, auth);
  if (invited.status !== 201) throw new Error(`invite failed: ${invited.status} ${invited.text}`);
  const token = lastLinkToken(target, email, "invitations");
  const password = `${role} member's own long passphrase`;
  const joined = await api.post(
    "/v1/merchants/team/invitations/accept",
    { token, password },
    { "x-forwarded-for": randomAddress() },
  );
  if (joined.status !== 200) throw new Error(`accept failed: ${joined.status} ${joined.text}`);
  const team = await api.get("/v1/merchants/team", auth);
  const id = (team.body.data as { id: string; email: string }[]).find((m) => m.email === email)?.id as string;
  return { email, password, accessToken: joined.body.data.accessToken, id };
}
