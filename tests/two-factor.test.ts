import { generateSync } from "otplib";
import { describe, expect, it } from "vitest";
import { client, randomAddress, signup, targets, uniqueEmail } from "./helpers/api";
import { testDb } from "./helpers/db";
import { addMember } from "./helpers/team";

/**
 * Two-factor sign-in (TOTP, RFC 6238) on SQLite and PostgreSQL: set up with a QR code drawn on the server,
 * enabled with a code, ten recovery codes each used once, a code accepted once, guesses limited per
 * challenge, the secret sealed at rest, a known browser skipping neither the password nor the code, and an
 * owner's switch requiring it of every member.
 */
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const now = () => Math.floor(Date.now() / 1000);
const codeAt = (secret: string, offsetSteps = 0) => generateSync({ secret, epoch: now() + offsetSteps * 30 });

describe.each(targets)("two-factor sign-in on $name", (target) => {
  const api = client(target.url);

  it("set up, enabled, then every sign-in asks for a code, accepted once, five guesses per challenge", async () => {
    const owner = await signup(api);
    const setup = await api.post("/v1/merchants/auth/2fa/setup", undefined, bearer(owner.accessToken));
    expect(setup.status).toBe(200);
    const { secret, otpauthUrl, qrCode } = setup.body.data;
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    const wrong = await api.post(
      "/v1/merchants/auth/2fa/enable",
      { code: "000000" === codeAt(secret) ? "111111" : "000000" },
      bearer(owner.accessToken),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe("invalid_two_factor_code");
    const enabled = await api.post(
      "/v1/merchants/auth/2fa/enable",
      { code: codeAt(secret) },
      bearer(owner.accessToken),
    );
    expect(enabled.status).toBe(200);
    const recovery: string[] = enabled.body.data.recoveryCodes;
    expect(new Set(recovery).size).toBe(10);

    const row = await testDb(target)
      .selectFrom("users")
      .selectAll()
      .where("email", "=", owner.email)
      .executeTakeFirstOrThrow();
    expect(row.totp_secret_sealed).toMatch(/^v1\./);
    expect(row.totp_secret_sealed).not.toContain(secret);
    const hashes = await testDb(target)
      .selectFrom("recovery_codes")
      .select("code_hash")
      .where("user_id", "=", row.id)
      .execute();
    expect(hashes).toHaveLength(10);
    for (const h of hashes)
      expect(recovery.some((c) => h.code_hash.includes(c.replace("-", "")))).toBe(false);

    // A browser that signed in before (its device cookie) still gives password and code.
    const browser = client(target.url, { address: randomAddress() });
    const first = await browser.post("/v1/merchants/auth/login", {
      email: owner.email,
      password: owner.password,
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ twoFactorRequired: true, challenge: expect.stringMatching(/^l2f_/) });
    expect(first.headers.get("set-cookie")).toBeNull();
    // The code enabling it was that step's: the next step's code signs in.
    const next = codeAt(secret, 1);
    const signedIn = await browser.post("/v1/merchants/auth/login/2fa", {
      challenge: first.body.data.challenge,
      code: next,
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.accessToken).toMatch(/^mst_/);
    const cookie = /paygate_device=([^;]+)/.exec(signedIn.headers.get("set-cookie") ?? "")?.[1] as string;
    expect(cookie).toBeTruthy();
    const used = await browser.post("/v1/merchants/auth/login/2fa", {
      challenge: first.body.data.challenge,
      code: next,
    });
    expect(used.body.error).toBe("invalid_token");

    const again = await browser.post(
      "/v1/merchants/auth/login",
      { email: owner.email, password: owner.password },
      { cookie: `paygate_device=${cookie}` },
    );
    expect(again.body.data.twoFactorRequired).toBe(true);
    // The same code a second time is refused (replay), on any instance: it is the step already accepted.
    const replay = await browser.post("/v1/merchants/auth/login/2fa", {
      challenge: again.body.data.challenge,
      code: next,
    });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe("invalid_two_factor_code");
    // Guesses: five per challenge in all, then it is spent.
    for (let i = 0; i < 4; i++) {
      const guess = await browser.post("/v1/merchants/auth/login/2fa", {
        challenge: again.body.data.challenge,
        code: String(100000 + i),
      });
      expect(guess.body.error).toBe("invalid_two_factor_code");
    }
    const sixth = await browser.post("/v1/merchants/auth/login/2fa", {
      challenge: again.body.data.challenge,
      code: codeAt(secret, 1),
    });
    expect(sixth.body.error).toBe("invalid_token");

    // A recovery code signs in once.
    const third = await browser.post("/v1/merchants/auth/login", {
      email: owner.email,
      password: owner.password,
    });
    const byRecovery = await browser.post("/v1/merchants/auth/login/2fa", {
      challenge: third.body.data.challenge,
      recoveryCode: recovery[0],
    });
    expect(byRecovery.status).toBe(200);
    const fourth = await browser.post("/v1/merchants/auth/login", {
      email: owner.email,
      password: owner.password,
    });
    const reusedRecovery = await browser.post("/v1/merchants/auth/login/2fa", {
      challenge: fourth.body.data.challenge,
      recoveryCode: recovery[0],
    });
    expect(reusedRecovery.body.error).toBe("invalid_two_factor_code");
    const log = (await api.get("/v1/merchants/audit-log?action=account", bearer(owner.accessToken))).body.data
      .entries;
    expect(log[0]).toMatchObject({ action: "account.two_factor_enable", actor: { email: owner.email } });
  });

  it("120 wrong passwords from 10 addresses leave the owner signing in from their own browser, with password and code", async () => {
    const owner = await signup(api);
    const setup = await api.post("/v1/merchants/auth/2fa/setup", undefined, bearer(owner.accessToken));
    const { secret } = setup.body.data;
    await api.post("/v1/merchants/auth/2fa/enable", { code: codeAt(secret) }, bearer(owner.accessToken));
    const login = (password: string, address: string, cookie?: string) =>
      api.post(
        "/v1/merchants/auth/login",
        { email: owner.email, password },
        { "x-forwarded-for": address, ...(cookie && { cookie }) },
      );
    // The owner's browser signs in once (password, then code) and keeps its device cookie.
    const first = await login(owner.password, randomAddress());
    const signedIn = await api.post("/v1/merchants/auth/login/2fa", {
      challenge: first.body.data.challenge,
      code: codeAt(secret, 1),
    });
    const cookie = (signedIn.headers.getSetCookie().find((c) => c.startsWith("paygate_device=")) ?? "").split(
      ";",
    )[0] as string;
    expect(cookie).toMatch(/^paygate_device=d1\./);

    const statuses = (
      await Promise.all(
        Array.from({ length: 10 }, async (_, a) => {
          const address = randomAddress();
          const seen: number[] = [];
          for (let i = 0; i < 12; i++) seen.push((await login(`wrong password ${a}.${i}`, address)).status);
          return seen;
        }),
      )
    ).flat();
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(90);

    // A stranger with the right password is refused; the owner's browser gets the code step, not a session.
    expect((await login(owner.password, randomAddress())).status).toBe(429);
    const mine = await login(owner.password, randomAddress(), cookie);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.data.twoFactorRequired).toBe(true);
    // As if a minute had passed since the last code was accepted (codes of the next steps are used up here).
    await testDb(target)
      .updateTable("users")
      .set({ totp_last_step: Math.floor(now() / 30) - 2 })
      .where("email", "=", owner.email)
      .execute();
    const withCode = await api.post("/v1/merchants/auth/login/2fa", {
      challenge: mine.body.data.challenge,
      code: codeAt(secret),
    });
    expect(withCode.status, withCode.text).toBe(200);
    expect(withCode.body.data.accessToken).toMatch(/^mst_/);
  });

  it("an owner's switch requires it of every member: without it, a member may only set it up", async () => {
    const owner = await signup(api);
    const viewer = await addMember(api, target, owner.accessToken, "viewer", uniqueEmail("v"));
    const adminMember = await addMember(api, target, owner.accessToken, "admin");
    const notOwner = await api.put(
      "/v1/merchants/two-factor-requirement",
      { required: true },
      bearer(adminMember.accessToken),
    );
    expect(notOwner.status).toBe(403);
    const mineFirst = await api.put(
      "/v1/merchants/two-factor-requirement",
      { required: true },
      bearer(owner.accessToken),
    );
    expect(mineFirst.status).toBe(409);
    const own = await api.post("/v1/merchants/auth/2fa/setup", undefined, bearer(owner.accessToken));
    await api.post(
      "/v1/merchants/auth/2fa/enable",
      { code: codeAt(own.body.data.secret) },
      bearer(owner.accessToken),
    );
    const on = await api.put(
      "/v1/merchants/two-factor-requirement",
      { required: true },
      bearer(owner.accessToken),
    );
    expect(on.status).toBe(200);
    const refused = await api.get("/v1/merchants/transactions", bearer(viewer.accessToken));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("two-factor");
    const setup = await api.post("/v1/merchants/auth/2fa/setup", undefined, bearer(viewer.accessToken));
    expect(setup.status).toBe(200);
    await api.post(
      "/v1/merchants/auth/2fa/enable",
      { code: codeAt(setup.body.data.secret) },
      bearer(viewer.accessToken),
    );
    expect((await api.get("/v1/merchants/transactions", bearer(viewer.accessToken))).status).toBe(200);
  });
});
