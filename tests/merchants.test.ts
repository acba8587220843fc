import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { client, initialize, production, randomAddress, signup, targets, uniqueEmail } from "./helpers/api";
import { testDb } from "./helpers/db";
import { mailsTo } from "./helpers/team";
import type { Target } from "./setup/servers";

describe.each(targets)("merchant endpoints on $name", (target) => {
  const api = client(target.url);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it("signup answers 201 with the merchant, a session and both keys shown once; stores only hashes", async () => {
    const email = uniqueEmail();
    const res = await api.post("/v1/merchants/auth/signup", {
      businessName: "  Kola Foods  ",
      email: email.toUpperCase(),
      password: "a long enough password",
    });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(d).toEqual({
      merchant: { id: expect.any(String), businessName: "Kola Foods", email },
      accessToken: expect.stringMatching(/^mst_[0-9A-Za-z]{43}$/),
      expiresAt: expect.any(String),
      keys: {
        test: { secretKey: expect.stringMatching(/^sk_test_[0-9A-Za-z]{43}$/) },
        live: { secretKey: expect.stringMatching(/^sk_live_[0-9A-Za-z]{43}$/) },
      },
    });
    expect(Date.parse(d.expiresAt)).toBeGreaterThan(Date.now());

    const db = testDb(target);
    const keys = await db
      .selectFrom("api_keys")
      .selectAll()
      .where("merchant_id", "=", d.merchant.id)
      .execute();
    expect(keys.map((k) => k.mode).sort()).toEqual(["live", "test"]);
    for (const k of keys) {
      expect(k.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(k.key_hash).not.toContain(d.keys.test.secretKey.slice(8));
    }
    // The password is the owner's, a user of the merchant (docs/console.md "Team").
    const owner = await db
      .selectFrom("users")
      .innerJoin("memberships", "memberships.user_id", "users.id")
      .select(["users.password_hash", "memberships.role"])
      .where("memberships.merchant_id", "=", d.merchant.id)
      .executeTakeFirstOrThrow();
    expect(owner.role).toBe("owner");
    expect(owner.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(owner.password_hash).not.toContain("a long enough password");
    const session = await db
      .selectFrom("merchant_sessions")
      .selectAll()
      .where("merchant_id", "=", d.merchant.id)
      .executeTakeFirstOrThrow();
    expect(session.token_hash).not.toBe(d.accessToken);
    expect(session.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("answers a second signup with the same email as a new one (the owner is emailed) and refuses weak input (400)", async () => {
    const m = await signup(api);
    const again = await api.post("/v1/merchants/auth/signup", {
      businessName: "X",
      email: m.email,
      password: "another password",
    });
    // A taken email is answered as a new one (nothing says it is registered); its keys and token open nothing,
    // and the email's owner is told instead.
    expect(again.status).toBe(201);
    expect(Object.keys(again.body.data).sort()).toEqual(["accessToken", "expiresAt", "keys", "merchant"]);
    expect(again.body.data.merchant.id).not.toBe(m.id);
    expect((await api.get("/v1/merchants/settings", bearer(again.body.data.accessToken))).status).toBe(401);
    expect(
      (await initialize(api, again.body.data.keys.test.secretKey, { amount: "100.00", email: "a@b.co" }))
        .status,
    ).toBe(401);
    expect(mailsTo(target, m.email).some((mail) => mail.includes("already has an account"))).toBe(true);
    const weak = await api.post("/v1/merchants/auth/signup", {
      businessName: "X",
      email: uniqueEmail(),
      password: "short",
    });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toContain("password must be at least 10 characters");
  });

  it("login answers a new session; a wrong password or unknown email is 401 invalid_credentials", async () => {
    const m = await signup(api);
    const ok = await api.post("/v1/merchants/auth/login", { email: m.email, password: m.password });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({
      merchant: { id: m.id, businessName: "Test Shop", email: m.email },
      role: "owner",
      accessToken: expect.stringMatching(/^mst_/),
      expiresAt: expect.any(String),
    });
    expect(ok.body.data.accessToken).not.toBe(m.accessToken);
    const wrong = await api.post("/v1/merchants/auth/login", { email: m.email, password: "wrong password!" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      status: "failed",
      error: "invalid_credentials",
      message: "The email or password is incorrect.",
    });
    const unknown = await api.post("/v1/merchants/auth/login", {
      email: uniqueEmail(),
      password: "whatever123",
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe(wrong.body.message);
  });

  it("rate limits failed logins per client address (429 rate_limited with Retry-After)", async () => {
    const m = await signup(api);
    const attacker = client(target.url, { address: randomAddress() });
    const statuses: number[] = [];
    // Guesses spread over emails, one of them the merchant's: the address's budget is what refuses here (one
    // account's own count of failures is tests/login-limits.test.ts's).
    for (let i = 0; i < 12; i++) {
      const email = i === 0 ? m.email : `guess-${i}-${m.email}`;
      statuses.push(
        (await attacker.post("/v1/merchants/auth/login", { email, password: `guess-${i}-xxxx` })).status,
      );
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Even the right password is refused while the address is limited...
    const blocked = await attacker.post("/v1/merchants/auth/login", { email: m.email, password: m.password });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe("rate_limited");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // ...but the merchant can still sign in from elsewhere.
    const elsewhere = await client(target.url).post("/v1/merchants/auth/login", {
      email: m.email,
      password: m.password,
    });
    expect(elsewhere.status).toBe(200);
  });

  it("counts guesses sent in parallel: the right password inside a burst of 30 wrong ones is refused too", async () => {
    const m = await signup(api);
    const attacker = client(target.url, { address: randomAddress() });
    // Over several emails, so that the address's budget decides (an account's count would refuse sooner).
    const wrong = Array.from({ length: 30 }, (_, i) =>
      attacker.post("/v1/merchants/auth/login", {
        email: i % 10 === 0 ? m.email : `parallel-${i}-${m.email}`,
        password: `parallel-${i}-xxxx`,
      }),
    );
    // Sent while the 30 are still hashing: none has been answered, so a limit that only counted finished
    // failures would still let this one through, and a guesser could find the password at full speed.
    await new Promise((r) => setTimeout(r, 20));
    const right = await attacker.post("/v1/merchants/auth/login", { email: m.email, password: m.password });
    const answers = await Promise.all(wrong);
    expect(right.status).toBe(429);
    expect(right.body.error).toBe("rate_limited");
    const tried = answers.filter((r) => r.status === 401).length;
    // Burst 10; refill is 5 a minute, so a slow run may earn one more try, never 20.
    expect(tried).toBeGreaterThanOrEqual(10);
    expect(tried).toBeLessThanOrEqual(11);
    expect(answers.filter((r) => r.status === 429).length).toBe(30 - tried);
  });

  it("rate limits signups per client address: 20 at once, then 429 with nothing written", async () => {
    const office = client(target.url, { address: randomAddress() });
    const body = (email: string) => ({
      businessName: "Burst Shop",
      email,
      password: "a long enough password",
    });
    // Invalid bodies are refused before the limit (no scrypt, no account), so they spend nothing.
    for (let i = 0; i < 25; i++) {
      const bad = await office.post("/v1/merchants/auth/signup", {
        ...body(uniqueEmail()),
        password: "short",
      });
      expect(bad.status, `invalid signup ${i + 1}`).toBe(400);
    }
    const taken = await signup(api);
    // A taken email spends a token like a new account does (and is answered like one).
    const probe = await office.post("/v1/merchants/auth/signup", body(taken.email));
    expect(probe.status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 21 }, () => office.post("/v1/merchants/auth/signup", body(uniqueEmail()))),
    );
    // Burst 20 and 20 an hour (one token per 3 minutes): the probe spent one, so exactly 19 get through.
    const made = answers.filter((r) => r.status === 201).length;
    expect(made).toBe(19);
    const refused = answers.filter((r) => r.status !== 201);
    expect(refused.length).toBe(21 - made);
    const refusedEmail = uniqueEmail("refused");
    const last = await office.post("/v1/merchants/auth/signup", body(refusedEmail));
    for (const r of [...refused, last]) {
      expect(r.status).toBe(429);
      expect(r.body.error).toBe("rate_limited");
      expect(r.body.message).toContain("sign-ups from this address");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    // Nothing was written for the refused one, and another address signs up as usual.
    const rows = await testDb(target)
      .selectFrom("merchants")
      .select("id")
      .where("email", "=", refusedEmail)
      .execute();
    expect(rows).toEqual([]);
    expect((await client(target.url).post("/v1/merchants/auth/signup", body(uniqueEmail()))).status).toBe(
      201,
    );
  });

  it("successful logins do not spend the address's budget", async () => {
    const m = await signup(api);
    const office = client(target.url, { address: randomAddress() });
    for (let i = 0; i < 15; i++) {
      const ok = await office.post("/v1/merchants/auth/login", { email: m.email, password: m.password });
      expect(ok.status, `login ${i + 1}`).toBe(200);
    }
  });

  it("refuses a missing, malformed, unknown, expired or signed-out session with 401 invalid_session", async () => {
    const m = await signup(api);
    for (const headers of [{}, bearer("nope"), bearer(`mst_${"x".repeat(43)}`), bearer(m.testKey)]) {
      const res = await api.get("/v1/merchants/settings", headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body.error).toBe("invalid_session");
    }
    const login = await api.post("/v1/merchants/auth/login", { email: m.email, password: m.password });
    const token = login.body.data.accessToken as string;
    expect((await api.get("/v1/merchants/settings", bearer(token))).status).toBe(200);
    const out = await api.post("/v1/merchants/auth/logout", undefined, bearer(token));
    expect(out.status).toBe(200);
    const after = await api.get("/v1/merchants/settings", bearer(token));
    expect(after.status).toBe(401);
    // The other session is untouched, until it expires.
    expect((await api.get("/v1/merchants/settings", bearer(m.accessToken))).status).toBe(200);
    await testDb(target)
      .updateTable("merchant_sessions")
      .set({ expires_at: Date.now() - 1 })
      .where("merchant_id", "=", m.id)
      .execute();
    const expired = await api.get("/v1/merchants/settings", bearer(m.accessToken));
    expect(expired.status).toBe(401);
    expect(expired.body.message).toContain("expired");
  });

  it("rolling a key answers the new key once; the old key stops working at once", async () => {
    const m = await signup(api);
    expect((await initialize(api, m.testKey, { amount: "1" })).status).toBe(201);
    const roll = await api.post("/v1/merchants/keys/roll", { mode: "test" }, bearer(m.accessToken));
    expect(roll.status).toBe(200);
    expect(roll.body.data).toEqual({
      mode: "test",
      secretKey: expect.stringMatching(/^sk_test_[0-9A-Za-z]{43}$/),
    });
    const old = await initialize(api, m.testKey, { amount: "1" });
    expect(old.status).toBe(401);
    expect(old.body.error).toBe("invalid_api_key");
    expect((await initialize(api, roll.body.data.secretKey, { amount: "1" })).status).toBe(201);
    const bad = await api.post("/v1/merchants/keys/roll", { mode: "prod" }, bearer(m.accessToken));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('mode must be "test" or "live"');
    const noSession = await api.post(
      "/v1/merchants/keys/roll",
      { mode: "test" },
      { "x-api-key": roll.body.data.secretKey },
    );
    expect(noSession.status).toBe(401);
    expect(noSession.body.error).toBe("invalid_session");
  });

  it("a staging session manages test mode only: the live key, webhook and events are refused (400 naming mode)", async () => {
    await expectOtherModeRefused(target, "live", /^mode must be "test" on the staging deployment/);
  });

  it("a body nested deeper than 64 levels is a 400 before anything walks it, Idempotency-Key or not", async () => {
    const m = await signup(api);
    const auth = bearer(m.accessToken);
    const deep = `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    for (const path of ["/v1/merchants/auth/logout", "/v1/merchants/keys/roll"]) {
      const res = await api.request("POST", path, {
        raw: deep,
        headers: { ...auth, "content-type": "application/json", "idempotency-key": `deep-${path}` },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ status: "failed", error: "validation_error" });
      expect(res.body.message).toContain(
        'body field "a" must not nest objects or arrays more than 64 levels',
      );
    }
    // Sixty-four levels are not refused for their depth (the roll refuses the unknown field instead).
    const ok = `{"a":${"[".repeat(63)}${"]".repeat(63)}}`;
    const shallow = await api.request("POST", "/v1/merchants/keys/roll", {
      raw: ok,
      headers: { ...auth, "content-type": "application/json" },
    });
    expect(shallow.status).toBe(400);
    expect(shallow.body.message).toContain('unknown field "a"');
    // The logout refused above did not happen: the session still works.
    expect((await api.get("/v1/merchants/settings", auth)).status).toBe(200);
  });

  it("settings: merchants see their fee rules but cannot set them (the operator does)", async () => {
    const m = await signup(api);
    const put = await api.put(
      "/v1/merchants/settings",
      { fees: { NGN: { card: { percent: "0" } } } },
      bearer(m.accessToken),
    );
    expect(put.status).toBe(400);
    expect(put.body.message).toContain('body has unknown field "fees"');
    expect((await initialize(api, m.testKey, { amount: "10000.00" })).body.data.cardFee).toBe("250.00");
  });

  it("operator fee rules (npm run merchant:fees) price the merchant's next payments; old ones keep theirs", async () => {
    const m = await signup(api);
    const session = bearer(m.accessToken);
    const fees = (...args: string[]) =>
      spawnSync(join("node_modules", ".bin", "tsx"), ["scripts/merchant-fees.ts", ...args], {
        env: { ...process.env, DATABASE_URL: target.databaseUrl, LOG_LEVEL: "warn" },
        encoding: "utf8",
      });
    const init = (amount: string, currency = "NGN") =>
      initialize(api, m.testKey, { amount, currency }).then((r) => r.body.data);
    const before = await initialize(api, m.testKey, { amount: "10000.00" });
    expect(before.body.data).toMatchObject({ cardFee: "250.00", transferFee: "100.00" });

    const set = fees(
      m.email,
      JSON.stringify({
        NGN: { card: { percent: "2.5", flat: "50.00", flatWaivedBelow: "1000.00", cap: "5000.00" } },
        USD: { transfer: { percent: "0.5" } },
      }),
    );
    expect(set.status, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ merchant: { id: m.id }, customFees: ["NGN", "USD"] });
    const shown = await api.get("/v1/merchants/settings", session);
    expect(shown.body.data.customFees).toEqual(["NGN", "USD"]);
    expect(shown.body.data.fees.NGN.card).toEqual({
      percent: "2.50",
      flat: "50.00",
      flatWaivedBelow: "1000.00",
      cap: "5000.00",
    });
    expect(shown.body.data.fees.USD.transfer).toEqual({
      percent: "0.50",
      flat: "0.00",
      flatWaivedBelow: "0.00",
      cap: null,
    });

    // 2.5% + 50.00; the transfer rule was not replaced, so it is still the default 1% capped at 1,000.00.
    expect(await init("10000.00")).toMatchObject({
      cardFee: "300.00",
      cardTotal: "10300.00",
      transferFee: "100.00",
      transferTotal: "10100.00",
    });
    expect(await init("999.99")).toMatchObject({ cardFee: "25.00" }); // flat waived below 1,000.00
    expect(await init("1000000.00")).toMatchObject({ cardFee: "5000.00", transferFee: "1000.00" }); // caps
    expect(await init("100.00", "USD")).toMatchObject({ cardFee: "3.90", transferFee: "0.50" });
    expect(await init("100.00", "GHS")).toMatchObject({ cardFee: "3.90", transferFee: "1.00" });

    // A payment offered before the change keeps the fees it was offered at.
    const stored = await testDb(target)
      .selectFrom("transactions")
      .select(["card_fee_minor", "transfer_fee_minor"])
      .where("reference", "=", before.body.data.reference)
      .executeTakeFirstOrThrow();
    expect([String(stored.card_fee_minor), String(stored.transfer_fee_minor)]).toEqual(["25000", "10000"]);

    // A refused change names the field and writes nothing.
    const refused = fees(m.email, JSON.stringify({ NGN: { card: { percent: "1", cap: "0" } } }));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("NGN.card.cap must be greater than zero");
    expect(await init("10000.00")).toMatchObject({ cardFee: "300.00" });
    expect(fees("nobody@example.com").stderr).toContain("no merchant has the id or email nobody@example.com");

    // A change touches only what it names: NGN's transfer rule leaves its card rule; USD null restores USD.
    expect(fees(m.id, JSON.stringify({ NGN: { transfer: { percent: "0.5" } }, USD: null })).status).toBe(0);
    expect(await init("10000.00")).toMatchObject({ cardFee: "300.00", transferFee: "50.00" });
    expect(await init("100.00", "USD")).toMatchObject({ transferFee: "1.00" });

    // A flat part larger than a small payment charges at most the payment: a merchant bearing the cost
    // settles 0.00, never a negative amount.
    await api.put("/v1/merchants/settings", { merchantBearsCost: true }, session);
    expect(fees(m.email, JSON.stringify({ NGN: { card: { percent: "1.5", flat: "5000.00" } } })).status).toBe(
      0,
    );
    expect(await init("10.00")).toMatchObject({
      cardFee: "10.00",
      cardTotal: "10.00",
      merchantBearsCost: true,
    });

    const reset = fees(m.email, "reset");
    expect(reset.status).toBe(0);
    expect(JSON.parse(reset.stdout).customFees).toEqual([]);
    expect(await init("10000.00")).toMatchObject({ cardFee: "250.00", transferFee: "100.00" });
  });

  it("settings: GET shows them, PUT changes only what it names", async () => {
    const m = await signup(api);
    const initial = await api.get("/v1/merchants/settings", bearer(m.accessToken));
    expect(initial.body.data).toEqual({
      businessName: "Test Shop",
      email: m.email,
      channels: ["card", "bank_transfer", "bank_payment", "ussd"],
      merchantBearsCost: false,
      brandColor: null,
      logoUrl: null,
      embedOrigins: [],
      fees: expect.objectContaining({
        NGN: {
          card: { percent: "1.50", flat: "100.00", flatWaivedBelow: "2500.00", cap: "2000.00" },
          transfer: { percent: "1.00", flat: "0.00", flatWaivedBelow: "0.00", cap: "1000.00" },
        },
        USD: {
          card: { percent: "3.90", flat: "0.00", flatWaivedBelow: "0.00", cap: null },
          transfer: { percent: "1.00", flat: "0.00", flatWaivedBelow: "0.00", cap: null },
        },
      }),
      customFees: [],
      dunningDays: [1, 3, 5],
    });
    const put = await api.put(
      "/v1/merchants/settings",
      {
        channels: ["bank_transfer", "card"],
        brandColor: "#0A7D5A",
        logoUrl: "https://cdn.example.com/logo.png",
      },
      bearer(m.accessToken),
    );
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      channels: ["card", "bank_transfer"],
      merchantBearsCost: false,
      brandColor: "#0A7D5A",
      logoUrl: "https://cdn.example.com/logo.png",
    });
    const cleared = await api.put("/v1/merchants/settings", { logoUrl: null }, bearer(m.accessToken));
    expect(cleared.body.data).toMatchObject({
      channels: ["card", "bank_transfer"],
      logoUrl: null,
      brandColor: "#0A7D5A",
    });

    const cases: Array<[unknown, string]> = [
      [{ channels: [] }, "channels must enable at least one channel"],
      [{ channels: ["cash"] }, "channels[0] must be one of card, bank_transfer, bank_payment, ussd"],
      [{ channels: ["card", "card"] }, "channels must not repeat a channel"],
      [{ brandColor: "red" }, "brandColor must be a hex colour"],
      [{ logoUrl: "javascript:alert(1)" }, "logoUrl must be an http(s) URL"],
      [{ businessName: "   " }, "businessName must not be empty"],
      [{ businessName: "x".repeat(121) }, "businessName must be at most 120 characters"],
      [{}, "must set at least one of"],
      [{ embedOrigins: "https://shop.example" }, "embedOrigins"],
      [{ embedOrigins: ["https://shop.example/pay"] }, "embedOrigins[0] must be an origin"],
      [{ embedOrigins: ["https://*.shop.example"] }, "embedOrigins[0] must name one host, without wildcards"],
      [{ embedOrigins: ["http://shop.example"] }, "embedOrigins[0] must be https"],
      [
        { embedOrigins: ["https://a.example", "https://A.example/"] },
        "embedOrigins[1] must not repeat an origin",
      ],
    ];
    for (const [body, message] of cases) {
      const res = await api.put("/v1/merchants/settings", body, bearer(m.accessToken));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toContain(message);
    }
  });

  it("settings: the origins that may embed the checkout are kept, normalized, replaced and cleared", async () => {
    const m = await signup(api);
    const put = await api.put(
      "/v1/merchants/settings",
      { embedOrigins: ["https://Shop.example/", "http://localhost:3000", "http://127.0.0.1:4320"] },
      bearer(m.accessToken),
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data.embedOrigins).toEqual([
      "https://shop.example",
      "http://localhost:3000",
      "http://127.0.0.1:4320",
    ]);
    const shown = await api.get("/v1/merchants/settings", bearer(m.accessToken));
    expect(shown.body.data.embedOrigins).toEqual(put.body.data.embedOrigins);
    // Other fields leave them alone; a new list replaces them; [] clears them.
    await api.put("/v1/merchants/settings", { brandColor: "#112233" }, bearer(m.accessToken));
    expect(
      (await api.get("/v1/merchants/settings", bearer(m.accessToken))).body.data.embedOrigins,
    ).toHaveLength(3);
    const replaced = await api.put(
      "/v1/merchants/settings",
      { embedOrigins: ["https://shop.example"] },
      bearer(m.accessToken),
    );
    expect(replaced.body.data.embedOrigins).toEqual(["https://shop.example"]);
    const cleared = await api.put("/v1/merchants/settings", { embedOrigins: [] }, bearer(m.accessToken));
    expect(cleared.body.data.embedOrigins).toEqual([]);
    const tooMany = await api.put(
      "/v1/merchants/settings",
      { embedOrigins: Array.from({ length: 11 }, (_, i) => `https://s${i}.example`) },
      bearer(m.accessToken),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain("embedOrigins must list at most 10 origins");
  });

  it("settings: the business name changes, and new checkouts show it", async () => {
    const m = await signup(api, { businessName: "Old Name" });
    const put = await api.put(
      "/v1/merchants/settings",
      { businessName: "  Ada Stores  " },
      bearer(m.accessToken),
    );
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      businessName: "Ada Stores",
      channels: ["card", "bank_transfer", "bank_payment", "ussd"],
    });
    expect((await api.get("/v1/merchants/settings", bearer(m.accessToken))).body.data.businessName).toBe(
      "Ada Stores",
    );
    const init = await api.post(
      "/v1/payment/initialize",
      { amount: "5000", email: "payer@example.com" },
      { "x-api-key": m.testKey },
    );
    const page = await fetch(init.body.data.checkoutUrl.replace(/^https?:\/\/[^/]+/, api.baseUrl));
    expect(await page.text()).toContain("Ada Stores");
  });

  it("lists the merchant's own transactions in its mode, newest first, with paging", async () => {
    const a = await signup(api);
    const b = await signup(api);
    const refs: string[] = [];
    for (let i = 1; i <= 5; i++)
      refs.push((await initialize(api, a.testKey, { amount: `${i}.00` })).body.data.reference);
    await initialize(api, b.testKey, { amount: "9.00" });
    const first = await api.get("/v1/merchants/transactions?limit=3", bearer(a.accessToken));
    expect(first.status).toBe(200);
    expect(first.body.data.transactions.map((t: { reference: string }) => t.reference)).toEqual(
      refs.slice(2).reverse(),
    );
    expect(first.body.data.nextCursor).toEqual(expect.any(String));
    const second = await api.get(
      `/v1/merchants/transactions?limit=3&cursor=${first.body.data.nextCursor}`,
      bearer(a.accessToken),
    );
    expect(second.body.data.transactions.map((t: { reference: string }) => t.reference)).toEqual(
      refs.slice(0, 2).reverse(),
    );
    expect(second.body.data.nextCursor).toBeNull();
    const filtered = await api.get("/v1/merchants/transactions?status=success", bearer(a.accessToken));
    expect(filtered.body.data.transactions).toEqual([]);
    // A status that does not exist is a mistake to report, not an empty list.
    const bogus = await api.get("/v1/merchants/transactions?status=paid", bearer(a.accessToken));
    expect(bogus.status).toBe(400);
    expect(bogus.body.error).toBe("validation_error");
    expect(bogus.body.message).toContain("status must be one of pending");
    const badCursor = await api.get("/v1/merchants/transactions?cursor=zzz", bearer(a.accessToken));
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.message).toContain("cursor");
  });
});

describe("merchant endpoints on the production deployment", () => {
  const api = client(production.url);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it("a production session manages live mode only: the test key, webhook and events are refused (400 naming mode)", async () => {
    const m = await expectOtherModeRefused(
      production,
      "test",
      /^mode must be "live" on the production deployment/,
    );
    const auth = bearer(m.accessToken);
    // Its own mode is served: the live key rolls.
    const rolled = await api.post("/v1/merchants/keys/roll", { mode: "live" }, auth);
    expect(rolled.status, rolled.text).toBe(200);
    expect(rolled.body.data.secretKey).toMatch(/^sk_live_/);
  });

  it("embed origins: https only on production (no http://localhost)", async () => {
    const m = await signup(api);
    const auth = bearer(m.accessToken);
    const local = await api.put("/v1/merchants/settings", { embedOrigins: ["http://localhost:3000"] }, auth);
    expect(local.status, local.text).toBe(400);
    expect(local.body.message).toContain("embedOrigins[0] must be https on production");
    const ok = await api.put("/v1/merchants/settings", { embedOrigins: ["https://shop.example"] }, auth);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.embedOrigins).toEqual(["https://shop.example"]);
  });

  it("logoUrl: https on a public host only on production (no mixed content, no loopback), and the CSP says so", async () => {
    const m = await signup(api);
    const auth = bearer(m.accessToken);
    for (const [logoUrl, rule] of [
      ["http://cdn.example.com/logo.png", "must be an https URL on production"],
      ["https://127.0.0.1/logo.png", "must point to a public host on production"],
      ["https://localhost:8443/logo.png", "must point to a public host on production"],
      ["https://[::1]/logo.png", "must point to a public host on production"],
      ["https://10.0.0.7/logo.png", "must point to a public host on production"],
      ["https://169.254.169.254/logo.png", "must point to a public host on production"],
      ["https://cdn.internal/logo.png", "must point to a public host on production"],
    ]) {
      const refused = await api.put("/v1/merchants/settings", { logoUrl }, auth);
      expect(refused.status, `${logoUrl}: ${refused.text}`).toBe(400);
      expect(refused.body.message).toContain(`logoUrl ${rule}`);
    }
    const ok = await api.put("/v1/merchants/settings", { logoUrl: "https://cdn.example.com/logo.png" }, auth);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.logoUrl).toBe("https://cdn.example.com/logo.png");
    // The hosted pages of production load no http image at all.
    const page = await fetch(`${production.url}/demo`);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("img-src 'self' data: https:;");
    expect(csp).not.toMatch(/img-src[^;]*http:/);
  });
});

describe.each(targets)("logoUrl on staging ($name)", (target) => {
  it("takes http and a developer's own machine, for a shop under development", async () => {
    const api = client(target.url);
    const m = await signup(api);
    const auth = { authorization: `Bearer ${m.accessToken}` };
    for (const logoUrl of ["http://cdn.example.com/logo.png", "http://localhost:3001/logo.png"]) {
      const res = await api.put("/v1/merchants/settings", { logoUrl }, auth);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.logoUrl).toBe(logoUrl);
    }
  });
});

/**
 * A session on `target`'s deployment asks to roll the key, set and read the webhook, roll its secret and list
 * the events of the mode that deployment does not serve: each is a 400 naming mode, and nothing is written
 * (that mode's key still works where it belongs, and no endpoint exists). Answers the merchant.
 */
async function expectOtherModeRefused(target: Target, mode: "test" | "live", message: RegExp) {
  const api = client(target.url);
  const m = await signup(api);
  const auth = { authorization: `Bearer ${m.accessToken}` };
  const attempts = [
    await api.post("/v1/merchants/keys/roll", { mode }, auth),
    await api.put("/v1/merchants/webhook", { mode, url: "https://hooks.example.com/x" }, auth),
    await api.get(`/v1/merchants/webhook?mode=${mode}`, auth),
    await api.post("/v1/merchants/webhook/roll-secret", { mode }, auth),
    await api.get(`/v1/merchants/events?mode=${mode}`, auth),
  ];
  for (const res of attempts) {
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe("validation_error");
    expect(res.body.message).toMatch(message);
  }
  const rows = await testDb(target)
    .selectFrom("api_keys")
    .select(["mode", "revoked_at"])
    .where("merchant_id", "=", m.id)
    .execute();
  expect(rows.filter((r) => r.mode === mode && r.revoked_at === null)).toHaveLength(1);
  const hooks = await testDb(target)
    .selectFrom("webhook_endpoints")
    .select("id")
    .where("merchant_id", "=", m.id)
    .execute();
  expect(hooks).toEqual([]);
  return m;
}
