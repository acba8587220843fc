import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "@/lib/endpoints";
import { client, signup, targets } from "./helpers/api";
import { addMember } from "./helpers/team";

/**
 * THE role table (docs/console.md "Team"): for every session endpoint, which roles may call it. Every session
 * endpoint of the registry is walked with a member of every role, on SQLite and PostgreSQL: a role the table
 * allows is never refused for its role (no 403 `forbidden`, no 401, no 5xx), a role it does not allow gets
 * 403 `forbidden` naming the endpoint's permission. The console's navigation is checked against it too.
 * O owner, A admin, D developer, S support, V viewer.
 */
const TABLE: Record<string, string> = {
  "POST /v1/merchants/refunds": "OAS",
  "GET /v1/merchants/refunds": "OADSV",
  "GET /v1/merchants/refunds/{id}": "OADSV",
  "POST /v1/merchants/customers": "OAS",
  "GET /v1/merchants/customers": "OASV",
  "GET /v1/merchants/customers/{code}": "OASV",
  "PATCH /v1/merchants/customers/{code}": "OAS",
  "POST /v1/merchants/authorizations/{code}/deactivate": "OAS",
  "GET /v1/merchants/webhook": "OADV",
  "PUT /v1/merchants/webhook": "OAD",
  "POST /v1/merchants/webhook/roll-secret": "OAD",
  "GET /v1/merchants/events": "OADV",
  "POST /v1/merchants/events/{id}/redeliver": "OAD",
  "GET /v1/merchants/memberships": "OADSV",
  "POST /v1/merchants/auth/switch": "OADSV",
  "POST /v1/merchants/auth/2fa/setup": "OADSV",
  "POST /v1/merchants/auth/2fa/enable": "OADSV",
  "PUT /v1/merchants/two-factor-requirement": "O",
  "POST /v1/merchants/keys/roll": "OAD",
  "GET /v1/merchants/settings": "OADSV",
  "PUT /v1/merchants/settings": "OA",
  "GET /v1/merchants/transactions": "OADSV",
  "GET /v1/merchants/paystack": "OADSV",
  "PUT /v1/merchants/paystack": "OA",
  "POST /v1/merchants/paystack/disconnect": "OA",
  "GET /v1/merchants/team": "OA",
  "POST /v1/merchants/team/invitations": "OA",
  "PATCH /v1/merchants/team/{id}": "OA",
  "DELETE /v1/merchants/team/{id}": "OA",
  "GET /v1/merchants/audit-log": "OA",
  "POST /v1/merchants/payment-links": "OAD",
  "GET /v1/merchants/payment-links": "OADSV",
  "GET /v1/merchants/payment-links/{slug}": "OADSV",
  "PATCH /v1/merchants/payment-links/{slug}": "OAD",
  // Last: it ends the session the walk uses.
  "POST /v1/merchants/auth/logout": "OADSV",
};

/** The console's pages each role is linked to (app/dashboard/_components/nav.tsx). */
const PAGES: Record<string, string> = {
  Overview: "OADSV",
  Payments: "OADSV",
  Customers: "OASV",
  Refunds: "OADSV",
  "Payment links": "OADSV",
  Webhooks: "OADV",
  "API keys": "OADV",
  Settings: "OADSV",
  Team: "OA",
  "Audit log": "OA",
  "Your account": "OADSV",
};

const LETTER = { owner: "O", admin: "A", developer: "D", support: "S", viewer: "V" } as const;
type RoleName = keyof typeof LETTER;

const UNKNOWN_UUID = "00000000-0000-4000-8000-000000000000";

/** A well-formed path with values nobody has: the permission is checked before anything is looked up. */
function pathOf(path: string): string {
  return path
    .replace("{id}/redeliver", `evt_${"Z".repeat(24)}/redeliver`)
    .replace("refunds/{id}", `rfd_${"Z".repeat(24)}`)
    .replace("team/{id}", `team/${UNKNOWN_UUID}`)
    .replace("customers/{code}", `customers/CUS_${"0".repeat(20)}`)
    .replace("authorizations/{code}", `authorizations/AUTH_${"0".repeat(20)}`)
    .replace("{slug}", "no-such-link-000000");
}

/** The body each write is walked with: its registry example, or one that fails before any outside call. */
function bodyOf(method: string, path: string, example: unknown): unknown {
  if (method === "GET" || method === "DELETE") return undefined;
  if (path === "/v1/merchants/paystack") return { mode: "test", secretKey: `sk_live_${"0".repeat(40)}` };
  if (path === "/v1/merchants/auth/switch") return { merchantId: UNKNOWN_UUID };
  // Left off: on, it would refuse every later call of members without two-factor sign-in.
  if (path === "/v1/merchants/two-factor-requirement") return { required: false };
  if (path === "/v1/merchants/team/invitations")
    return { email: `invitee-${Date.now()}@example.com`, role: "viewer" };
  if (path === "/v1/merchants/settings" && method === "PUT") return { brandColor: "#0f766e" };
  if (path === "/v1/merchants/refunds") return { reference: "PAY_TXN_NOSUCHPAYMENT01", amount: "1.00" };
  return example ?? {};
}

describe.each(targets)("the role table on $name", (target) => {
  const api = client(target.url);

  it("covers every session endpoint of the registry", () => {
    const session = ENDPOINTS.filter((e) => e.auth === "session").map((e) => `${e.method} ${e.path}`);
    expect(Object.keys(TABLE).sort()).toEqual(session.sort());
  });

  it("answers each endpoint to each role as the table says, and the console links what the table allows", async () => {
    const owner = await signup(api, { businessName: "Roles Shop" });
    const tokens: Record<RoleName, string> = { owner: owner.accessToken } as Record<RoleName, string>;
    for (const role of ["admin", "developer", "support", "viewer"] as const)
      tokens[role] = (await addMember(api, target, owner.accessToken, role)).accessToken;

    const wrong: string[] = [];
    for (const role of Object.keys(LETTER) as RoleName[]) {
      const auth = { authorization: `Bearer ${tokens[role]}` };
      // The console's navigation, as the role sees it.
      const page = await fetch(`${target.url}/dashboard`, {
        headers: { cookie: `paygate_session=${tokens[role]}` },
      });
      const html = await page.text();
      const nav = /<nav aria-label="Console"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "";
      for (const [name, roles] of Object.entries(PAGES)) {
        const linked = nav.includes(`>${name.replace("'", "&#x27;")}</a>`);
        if (linked !== roles.includes(LETTER[role]))
          wrong.push(`${role}: nav ${name} ${linked ? "shown" : "hidden"}`);
      }
      for (const [key, roles] of Object.entries(TABLE)) {
        const [method, path] = key.split(" ") as [string, string];
        const endpoint = ENDPOINTS.find((e) => e.method === method && e.path === path);
        const body = bodyOf(method, path, endpoint?.example);
        const res = await api.request(method, pathOf(path), { body, headers: auth });
        const allowed = roles.includes(LETTER[role]);
        const answer = `${res.status} ${res.body?.error ?? ""}`.trim();
        if (allowed && (res.status === 403 || res.body?.error === "invalid_session" || res.status >= 500))
          wrong.push(`${role} ${key}: allowed, answered ${answer} ${res.body?.message ?? ""}`);
        if (!allowed) {
          const named =
            typeof res.body?.message === "string" && res.body.message.includes(endpoint?.permission ?? "?");
          if (res.status !== 403 || res.body?.error !== "forbidden" || !named)
            wrong.push(`${role} ${key}: not allowed, answered ${answer} ${res.body?.message ?? ""}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
