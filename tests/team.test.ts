import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { client, randomAddress, signup, targets, uniqueEmail } from "./helpers/api";
import { testDb } from "./helpers/db";
import { addMember, lastLinkToken, mailsTo } from "./helpers/team";
import { cleanupHarness, freshDatabase, startApp } from "./helpers/webhook-harness";

/**
 * Teams, the audit log and password resets (docs/console.md "Team"), on SQLite and PostgreSQL: invitations by
 * email used once, roles changed, the last owner kept, a removed member's session refused at once (also on
 * another instance of one database), every change in the audit log with who made it, and a password reset that
 * says nothing about which emails have accounts and signs out every session.
 */
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

afterAll(cleanupHarness);

describe.each(targets)("teams on $name", (target) => {
  const api = client(target.url);

  it("an invitation is emailed, joins once, and its token is stored hashed and never logged", async () => {
    const owner = await signup(api);
    const email = uniqueEmail("invitee");
    const invited = await api.post(
      "/v1/merchants/team/invitations",
      { email, role: "support" },
      bearer(owner.accessToken),
    );
    expect(invited.status).toBe(201);
    expect(invited.body.data).toEqual({
      id: expect.any(String),
      email,
      role: "support",
      expiresAt: expect.any(String),
    });
    const days = (Date.parse(invited.body.data.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    const token = lastLinkToken(target, email, "invitations");
    const row = await testDb(target)
      .selectFrom("invitations")
      .selectAll()
      .where("id", "=", invited.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(token.slice(4));

    // The page works without JavaScript: a plain GET shows the form.
    const page = await fetch(`${target.url}/dashboard/invitations/${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("You are invited as");
    expect(html).toContain('name="password"');

    const listed = await api.get("/v1/merchants/team", bearer(owner.accessToken));
    expect(listed.body.data.map((m: { email: string; status: string }) => [m.email, m.status])).toEqual([
      [owner.email, "active"],
      [email, "invited"],
    ]);

    const weak = await api.post("/v1/merchants/team/invitations/accept", { token, password: "short" });
    expect(weak.status).toBe(400);
    const joined = await api.post("/v1/merchants/team/invitations/accept", {
      token,
      password: "the invitee's own long passphrase",
    });
    expect(joined.status).toBe(200);
    expect(joined.body.data).toMatchObject({ merchant: { id: owner.id }, role: "support" });
    const again = await api.post("/v1/merchants/team/invitations/accept", {
      token,
      password: "the invitee's own long passphrase",
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_token");
    expect(
      (await fetch(`${target.url}/dashboard/invitations/${token}`).then((r) => r.text())).includes(
        "was used already",
      ),
    ).toBe(true);
    // The member signs in with their own password.
    const login = await api.post("/v1/merchants/auth/login", {
      email,
      password: "the invitee's own long passphrase",
    });
    expect(login.status).toBe(200);
    expect(login.body.data.role).toBe("support");

    expect(readFileSync(target.logFile, "utf8")).not.toContain(token);
  });

  it("a user in two merchants switches between them; each session acts in its own", async () => {
    const first = await signup(api, { businessName: "First" });
    const second = await signup(api, { businessName: "Second" });
    const dev = await addMember(api, target, first.accessToken, "developer");
    // The same email invited to the second merchant signs in with the password it has.
    await api.post(
      "/v1/merchants/team/invitations",
      { email: dev.email, role: "viewer" },
      bearer(second.accessToken),
    );
    const token = lastLinkToken(target, dev.email, "invitations");
    const wrong = await api.post("/v1/merchants/team/invitations/accept", {
      token,
      password: "not the password!",
    });
    expect(wrong.status).toBe(401);
    const joined = await api.post("/v1/merchants/team/invitations/accept", { token, password: dev.password });
    expect(joined.status).toBe(200);
    const mine = await api.get("/v1/merchants/memberships", bearer(joined.body.data.accessToken));
    expect(
      mine.body.data.map((m: { businessName: string; role: string }) => `${m.businessName} ${m.role}`),
    ).toEqual(["First developer", "Second viewer"]);
    const switched = await api.post(
      "/v1/merchants/auth/switch",
      { merchantId: first.id },
      bearer(joined.body.data.accessToken),
    );
    expect(switched.status).toBe(200);
    expect(switched.body.data).toMatchObject({ merchant: { id: first.id }, role: "developer" });
    // The session it left ends; the new one rolls the first merchant's key, which a viewer could not.
    expect((await api.get("/v1/merchants/settings", bearer(joined.body.data.accessToken))).status).toBe(401);
    expect(
      (await api.post("/v1/merchants/keys/roll", { mode: "test" }, bearer(switched.body.data.accessToken)))
        .status,
    ).toBe(200);
    const other = await api.post(
      "/v1/merchants/auth/switch",
      { merchantId: uniqueEmail() },
      bearer(switched.body.data.accessToken),
    );
    expect(other.status).toBe(404);
    expect(other.body.error).toBe("merchant_not_found");
    // A member of one merchant cannot reach another's team member.
    const foreign = await api.request("DELETE", `/v1/merchants/team/${dev.id}`, {
      headers: bearer(second.accessToken),
    });
    expect(foreign.status).toBe(404);
  });

  it("roles change, owners are kept (409 last_owner), only owners touch owners, removal ends sessions at once", async () => {
    const owner = await signup(api);
    const admin = await addMember(api, target, owner.accessToken, "admin");
    const support = await addMember(api, target, owner.accessToken, "support");
    const ownId = (await api.get("/v1/merchants/team", bearer(owner.accessToken))).body.data.find(
      (m: { email: string }) => m.email === owner.email,
    ).id;

    const demote = await api.request("PATCH", `/v1/merchants/team/${ownId}`, {
      body: { role: "admin" },
      headers: bearer(owner.accessToken),
    });
    expect(demote.status).toBe(409);
    expect(demote.body.error).toBe("last_owner");
    const removeSelf = await api.request("DELETE", `/v1/merchants/team/${ownId}`, {
      headers: bearer(owner.accessToken),
    });
    expect(removeSelf.body.error).toBe("last_owner");
    const adminOnOwner = await api.request("DELETE", `/v1/merchants/team/${ownId}`, {
      headers: bearer(admin.accessToken),
    });
    expect(adminOnOwner.status).toBe(403);
    expect(adminOnOwner.body.message).toContain("team.owners");
    const adminMakesOwner = await api.request("PATCH", `/v1/merchants/team/${support.id}`, {
      body: { role: "owner" },
      headers: bearer(admin.accessToken),
    });
    expect(adminMakesOwner.status).toBe(403);

    const promoted = await api.request("PATCH", `/v1/merchants/team/${support.id}`, {
      body: { role: "developer" },
      headers: bearer(admin.accessToken),
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data.role).toBe("developer");
    // The role holds from the member's next request: a developer rolls keys, support could not.
    expect(
      (await api.post("/v1/merchants/keys/roll", { mode: "test" }, bearer(support.accessToken))).status,
    ).toBe(200);

    const bad = await api.request("PATCH", `/v1/merchants/team/${support.id}`, {
      body: { role: "superuser" },
      headers: bearer(owner.accessToken),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("role");

    const removed = await api.request("DELETE", `/v1/merchants/team/${support.id}`, {
      headers: bearer(admin.accessToken),
    });
    expect(removed.status).toBe(200);
    const after = await api.get("/v1/merchants/settings", bearer(support.accessToken));
    expect(after.status).toBe(401);
    expect(after.body.error).toBe("invalid_session");

    // Who did each of those things.
    const log = await api.get("/v1/merchants/audit-log?action=team", bearer(owner.accessToken));
    expect(log.status).toBe(200);
    const seen = log.body.data.entries.map(
      (e: { action: string; actor: { email?: string } }) => `${e.action} by ${e.actor.email}`,
    );
    expect(seen).toEqual([
      `team.remove by ${admin.email}`,
      `team.role_change by ${admin.email}`,
      `team.join by ${support.email}`,
      `team.invite by ${owner.email}`,
      `team.join by ${admin.email}`,
      `team.invite by ${owner.email}`,
    ]);
    const byAdmin = await api.get(
      `/v1/merchants/audit-log?actor=${encodeURIComponent(admin.email)}&limit=1`,
      bearer(owner.accessToken),
    );
    expect(byAdmin.body.data.entries).toHaveLength(1);
    const next = await api.get(
      `/v1/merchants/audit-log?actor=${encodeURIComponent(admin.email)}&limit=1&cursor=${byAdmin.body.data.nextCursor}`,
      bearer(owner.accessToken),
    );
    expect(next.body.data.entries[0].action).toBe("team.role_change");
    expect((await api.get("/v1/merchants/audit-log?limit=1000", bearer(owner.accessToken))).status).toBe(400);
    expect((await api.get("/v1/merchants/audit-log", bearer(admin.accessToken))).status).toBe(200);
  });

  it("records changes made with a secret key and with a session, with actor, mode and address", async () => {
    const owner = await signup(api);
    const address = randomAddress();
    const customer = await api.post(
      "/v1/customers",
      { email: uniqueEmail("c") },
      { "x-api-key": owner.testKey, "x-forwarded-for": address },
    );
    expect(customer.status).toBe(201);
    await api.post(
      "/v1/merchants/keys/roll",
      { mode: "test" },
      { ...bearer(owner.accessToken), "x-forwarded-for": address },
    );
    await api.put("/v1/merchants/settings", { brandColor: "#123456" }, bearer(owner.accessToken));
    const log = (await api.get("/v1/merchants/audit-log", bearer(owner.accessToken))).body.data.entries;
    expect(log.map((e: { action: string }) => e.action)).toEqual([
      "settings.update",
      "key.roll",
      "customer.create",
    ]);
    expect(log[2]).toMatchObject({
      mode: "test",
      actor: { type: "secret_key", last4: owner.testKey.slice(-4) },
      address,
      target: customer.body.data.customerCode ?? expect.any(String),
    });
    expect(log[1]).toMatchObject({
      actor: { type: "member", email: owner.email },
      address,
      target: "test secret key",
    });
    // The console's CSV export of the same log.
    const csv = await fetch(`${target.url}/dashboard/api/audit-log/export?action=key.roll`, {
      headers: { cookie: `paygate_session=${owner.accessToken}` },
    });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`key.roll,test secret key,member,${owner.email},${address}`);
  });

  it("the console's Team, Audit log and Your account pages render for the roles that may see them", async () => {
    const owner = await signup(api);
    const support = await addMember(api, target, owner.accessToken, "support");
    const page = async (token: string, path: string) => {
      const res = await fetch(`${target.url}${path}`, { headers: { cookie: `paygate_session=${token}` } });
      return { status: res.status, html: await res.text() };
    };
    const team = await page(owner.accessToken, "/dashboard/team");
    expect(team.status).toBe(200);
    expect(team.html).toContain(support.email);
    expect(team.html).toContain("Send invitation");
    const log = await page(owner.accessToken, "/dashboard/audit-log?action=team");
    expect(log.html).toContain("team.join");
    expect(log.html).toContain(support.email);
    const account = await page(support.accessToken, "/dashboard/account");
    expect(account.html).toContain("Set up two-factor sign-in");
    expect(account.html).not.toContain("Require two-factor sign-in of every member");
    const refused = await page(support.accessToken, "/dashboard/team");
    expect(refused.html).toContain('data-not-allowed="team.read"');
    expect(refused.html).not.toContain(owner.email);
    expect((await fetch(`${target.url}/dashboard/forgot-password`)).status).toBe(200);
  });

  it("password reset: 202 for any email in the same time, one 30-minute link, every session ended", async () => {
    const owner = await signup(api);
    const member = await addMember(api, target, owner.accessToken, "viewer");
    const secondSession = (
      await api.post("/v1/merchants/auth/login", { email: member.email, password: member.password })
    ).body.data.accessToken;
    const time = async (email: string) => {
      const started = performance.now();
      const res = await api.post(
        "/v1/merchants/auth/password-reset",
        { email },
        { "x-forwarded-for": randomAddress() },
      );
      return { res, ms: performance.now() - started };
    };
    const known = await time(member.email);
    const unknown = await time(uniqueEmail("nobody"));
    expect(known.res.status).toBe(202);
    expect(unknown.res.status).toBe(202);
    expect(known.res.body).toEqual(unknown.res.body);
    expect(Math.abs(known.ms - unknown.ms)).toBeLessThan(150);
    expect(mailsTo(target, member.email).some((m) => m.includes("/dashboard/reset-password/"))).toBe(true);
    const token = lastLinkToken(target, member.email, "reset-password");
    const row = await testDb(target)
      .selectFrom("user_tokens")
      .selectAll()
      .where("kind", "=", "password_reset")
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    expect(Number(row.expires_at) - Number(row.created_at)).toBe(30 * 60 * 1000);

    const page = await fetch(`${target.url}/dashboard/reset-password/${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="password"');

    const done = await api.post("/v1/merchants/auth/password-reset/confirm", {
      token,
      password: "a brand new passphrase here",
    });
    expect(done.status).toBe(200);
    for (const t of [member.accessToken, secondSession])
      expect((await api.get("/v1/merchants/settings", bearer(t))).status).toBe(401);
    const reused = await api.post("/v1/merchants/auth/password-reset/confirm", {
      token,
      password: "another new passphrase",
    });
    expect(reused.body.error).toBe("invalid_token");
    expect(
      (await api.post("/v1/merchants/auth/login", { email: member.email, password: member.password })).status,
    ).toBe(401);
    expect(
      (
        await api.post("/v1/merchants/auth/login", {
          email: member.email,
          password: "a brand new passphrase here",
        })
      ).status,
    ).toBe(200);
    // An expired link is refused.
    await api.post(
      "/v1/merchants/auth/password-reset",
      { email: member.email },
      { "x-forwarded-for": randomAddress() },
    );
    const late = lastLinkToken(target, member.email, "reset-password");
    await testDb(target)
      .updateTable("user_tokens")
      .set({ expires_at: Date.now() - 1 })
      .where("used_at", "is", null)
      .execute();
    expect(
      (
        await api.post("/v1/merchants/auth/password-reset/confirm", {
          token: late,
          password: "yet another passphrase",
        })
      ).body.error,
    ).toBe("invalid_token");
    const log = (await api.get("/v1/merchants/audit-log?action=account", bearer(owner.accessToken))).body.data
      .entries;
    expect(log[0]).toMatchObject({ action: "account.password_reset", actor: { email: member.email } });
    expect(readFileSync(target.logFile, "utf8")).not.toContain(token);
  });
});

const kinds: ("sqlite" | "postgres")[] = [
  "sqlite",
  ...(process.env.TEST_DATABASE_URL ? (["postgres"] as const) : []),
];

describe.each(kinds)("a removal on two instances of one %s database", (kind) => {
  it("ends the member's session on the other instance at once", async () => {
    const database = await freshDatabase(kind);
    const mailDir = mkdtempSync(join(tmpdir(), "paygate-team-mail-"));
    const env = { RECEIPTS_DIR: mailDir };
    const [a, b] = await Promise.all([
      startApp({ name: `team-a-${kind}`, databaseUrl: database.url, env }),
      startApp({ name: `team-b-${kind}`, databaseUrl: database.url, env }),
    ]);
    const onA = client(a.url);
    const onB = client(b.url);
    const owner = await signup(onA);
    const email = uniqueEmail("removed");
    await onA.post("/v1/merchants/team/invitations", { email, role: "support" }, bearer(owner.accessToken));
    // Invited on instance A, joined and signed in on instance B.
    const token = lastLinkToken(
      { name: kind, url: a.url, databaseUrl: database.url, logFile: "", mailDir },
      email,
      "invitations",
    );
    const joined = await onB.post("/v1/merchants/team/invitations/accept", {
      token,
      password: "support's long passphrase",
    });
    expect(joined.status).toBe(200);
    const session = bearer(joined.body.data.accessToken);
    expect((await onB.get("/v1/merchants/transactions", session)).status).toBe(200);
    const id = (await onA.get("/v1/merchants/team", bearer(owner.accessToken))).body.data.find(
      (m: { email: string }) => m.email === email,
    ).id;
    expect(
      (await onA.request("DELETE", `/v1/merchants/team/${id}`, { headers: bearer(owner.accessToken) }))
        .status,
    ).toBe(200);
    const after = await onB.get("/v1/merchants/transactions", session);
    expect(after.status).toBe(401);
    expect(after.body.error).toBe("invalid_session");
  });
});
