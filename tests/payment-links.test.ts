import { describe, expect, it } from "vitest";
import { client, type Merchant, production, randomAddress, signup, targets } from "./helpers/api";
import { CARDS, card } from "./helpers/channels";
import { testDb } from "./helpers/db";

describe.each(targets)("payment links on $name", (target) => {
  const api = client(target.url);
  const bearer = (m: Merchant) => ({ authorization: `Bearer ${m.accessToken}` });
  const create = (m: Merchant, body: Record<string, unknown>) =>
    api.post("/v1/merchants/payment-links", body, bearer(m));
  // Each start from an address of its own: on a usage-limited link an address holds one unpaid place.
  const pay = (slug: string, body: Record<string, unknown>) =>
    api.post(`/v1/merchants/payment-links/${slug}/pay`, body, { "x-forwarded-for": randomAddress() });
  const fields = [
    { name: "student", label: "Student name", type: "text", required: true },
    { name: "grade", label: "Grade", type: "select", options: ["JSS1", "JSS2"], required: true },
    { name: "parentEmail", label: "Parent email", type: "email" },
    { name: "phone", label: "Phone", type: "phone" },
    { name: "seats", label: "Seats", type: "number" },
  ];

  it("creates a link (201) with a readable unique slug and paymentLinkUrl", async () => {
    const m = await signup(api, { businessName: "Bright School" });
    const res = await create(m, {
      title: "School fees — Term 1",
      description: "Fees for the first term",
      amount: "15000",
      currency: "NGN",
      channels: ["card", "bank_transfer"],
      redirectUrl: "https://school.example.com/thanks",
      feeBearer: "merchant",
      metadata: { fields },
    });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(d.slug).toMatch(/^school-fees-term-1-[a-z0-9]{6}$/);
    expect(d).toEqual({
      id: expect.stringMatching(/^plink_[0-9A-Za-z]{24}$/),
      slug: d.slug,
      paymentLinkUrl: `${target.url}/l/${d.slug}`,
      title: "School fees — Term 1",
      description: "Fees for the first term",
      amount: "15000.00",
      minAmount: null,
      maxAmount: null,
      currency: "NGN",
      channels: ["card", "bank_transfer"],
      redirectUrl: "https://school.example.com/thanks",
      feeBearer: "merchant",
      metadata: { fields },
      active: true,
      expiresAt: null,
      usageLimit: null,
      usageCount: 0,
      createdAt: expect.any(String),
    });
    const again = await create(m, { title: "School fees — Term 1", amount: "15000" });
    expect(again.body.data.slug).not.toBe(d.slug);

    const read = await api.get(`/v1/merchants/payment-links/${d.slug}`, bearer(m));
    expect(read.body.data).toEqual(d);
    const list = await api.get("/v1/merchants/payment-links", bearer(m));
    expect(list.body.data.links.map((l: { slug: string }) => l.slug)).toEqual([again.body.data.slug, d.slug]);
    expect(list.body.data.nextCursor).toBeNull();
    // Paged like every list: a page of one, then the rest after its cursor.
    const first = await api.get("/v1/merchants/payment-links?limit=1", bearer(m));
    expect(first.body.data.links.map((l: { slug: string }) => l.slug)).toEqual([again.body.data.slug]);
    const rest = await api.get(
      `/v1/merchants/payment-links?limit=1&cursor=${encodeURIComponent(first.body.data.nextCursor)}`,
      bearer(m),
    );
    expect(rest.body.data.links.map((l: { slug: string }) => l.slug)).toEqual([d.slug]);
    expect(rest.body.data.nextCursor).toBeNull();
  });

  it("refuses the secret key (401) and other merchants (404)", async () => {
    const m = await signup(api);
    const withKey = await api.post(
      "/v1/merchants/payment-links",
      { title: "X", amount: "10" },
      { authorization: `Bearer ${m.testKey}` },
    );
    expect(withKey.status).toBe(401);
    expect(withKey.body).toEqual({
      status: "failed",
      error: "invalid_session",
      message: expect.stringContaining("not a secret key"),
    });
    const viaHeader = await api.post(
      "/v1/merchants/payment-links",
      { title: "X", amount: "10" },
      { "x-api-key": m.testKey },
    );
    expect(viaHeader.status).toBe(401);
    const link = await create(m, { title: "Mine", amount: "10" });
    const other = await signup(api);
    const foreign = await api.get(`/v1/merchants/payment-links/${link.body.data.slug}`, bearer(other));
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe("payment_link_not_found");
  });

  it("validates the link: amount rules, prompts schema, channels, dates", async () => {
    const m = await signup(api);
    await api.put("/v1/merchants/settings", { channels: ["card", "bank_transfer"] }, bearer(m));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: "10" }, "title is required"],
      [{ title: "T", amount: "-1" }, "amount must be a decimal string"],
      [{ title: "T", amount: 10 }, "amount must be a string"],
      [
        { title: "T", amount: "10", minAmount: "5" },
        "minAmount and maxAmount are only for links without a fixed amount",
      ],
      [{ title: "T", minAmount: "50", maxAmount: "10" }, "minAmount must not exceed maxAmount"],
      [{ title: "T", channels: ["ussd"] }, "channels ussd is not enabled for this merchant"],
      [{ title: "T", feeBearer: "nobody" }, 'feeBearer must be "customer" or "merchant"'],
      [
        { title: "T", metadata: { fields: [{ name: "a", label: "A", type: "select" }] } },
        "metadata.fields[0].options is required for a select field",
      ],
      [
        { title: "T", metadata: { fields: [{ name: "1a", label: "A", type: "text" }] } },
        "metadata.fields[0].name must start with a letter",
      ],
      [
        { title: "T", metadata: { fields: [{ name: "a", label: "A", type: "date" }] } },
        "metadata.fields[0].type must be one of",
      ],
      [
        {
          title: "T",
          metadata: {
            fields: [
              { name: "a", label: "A", type: "text" },
              { name: "a", label: "B", type: "text" },
            ],
          },
        },
        "must not repeat a field name",
      ],
      [{ title: "T", expiresAt: "2001-01-01T00:00:00Z" }, "expiresAt must be in the future"],
      [{ title: "T", usageLimit: 0 }, "usageLimit must be at least 1"],
      [{ title: "T", redirectUrl: "javascript:alert(1)" }, "redirectUrl must be an absolute http(s) URL"],
    ];
    for (const [body, message] of cases) {
      const res = await create(m, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.message).toContain(message);
    }
    const list = await api.get("/v1/merchants/payment-links", bearer(m));
    expect(list.body.data).toEqual({ links: [], nextCursor: null });
  });

  it("refuses a link whose channels cannot take its currency (USSD for GHS); USSD is dropped from a GHS payment", async () => {
    const m = await signup(api);
    const ussdOnly = await create(m, {
      title: "Cedi dues",
      amount: "20",
      currency: "GHS",
      channels: ["ussd"],
    });
    expect(ussdOnly.status).toBe(400);
    expect(ussdOnly.body.error).toBe("validation_error");
    expect(ussdOnly.body.message).toBe("channels ussd cannot take GHS payments (no GHS bank offers USSD).");
    const mixed = await create(m, {
      title: "Cedi dues",
      amount: "20",
      currency: "GHS",
      channels: ["card", "ussd"],
    });
    expect(mixed.status).toBe(201);
    const paid = await pay(mixed.body.data.slug, { email: "payer@example.com" });
    expect(paid.status).toBe(201);
    expect(paid.body.data.channels).toEqual(["card"]);
    // Channels left out: the merchant's own, which cannot take GHS either; no field to name.
    await api.put("/v1/merchants/settings", { channels: ["ussd"] }, bearer(m));
    const implied = await create(m, { title: "Cedi dues", amount: "20", currency: "GHS" });
    expect(implied.status).toBe(400);
    expect(implied.body).toEqual({
      status: "failed",
      error: "channel_unavailable",
      message: "None of the enabled channels (ussd) takes GHS payments.",
    });
  });

  it("display is public and shows nothing private; an unknown slug is 404", async () => {
    const m = await signup(api, { businessName: "Kola <b>Foods</b>" });
    const link = await create(m, {
      title: "Donate",
      minAmount: "100",
      maxAmount: "5000",
      metadata: { fields },
    });
    const res = await api.get(`/v1/merchants/payment-links/${link.body.data.slug}/display`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      title: "Donate",
      description: null,
      amount: null,
      minAmount: "100.00",
      maxAmount: "5000.00",
      currency: "NGN",
      fields,
      merchantName: "Kola <b>Foods</b>",
      brandColor: null,
      logoUrl: null,
      active: true,
      unavailableReason: null,
      // What the start page says about fees before checkout: one rule per group of channels offered.
      pricing: {
        merchantBearsCost: false,
        groups: [
          {
            channels: ["card"],
            rule: { percent: "1.50", flat: "100.00", flatWaivedBelow: "2500.00", cap: "2000.00" },
          },
          {
            channels: ["bank_transfer", "bank_payment", "ussd"],
            rule: { percent: "1.00", flat: "0.00", flatWaivedBelow: "0.00", cap: "1000.00" },
          },
        ],
      },
    });
    expect(res.text).not.toContain(m.id);
    const missing = await api.get("/v1/merchants/payment-links/no-such-link-abc123/display");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("payment_link_not_found");
    const missingPay = await pay("no-such-link-abc123", { amount: "10" });
    expect(missingPay.status).toBe(404);
    expect(missingPay.body.error).toBe("payment_link_not_found");
    const badSlug = await api.get("/v1/merchants/payment-links/Bad_Slug!/display");
    expect(badSlug.status).toBe(400);
  });

  it("pay: a fixed-amount link initializes a transaction for the link's merchant, channels and fee bearer, keeping the answers", async () => {
    const m = await signup(api);
    const link = await create(m, {
      title: "Fees",
      amount: "15000",
      channels: ["card", "bank_transfer"],
      feeBearer: "merchant",
      redirectUrl: "https://school.example.com/thanks",
      metadata: { fields },
    });
    const slug = link.body.data.slug;
    const res = await pay(slug, {
      email: "parent@example.com",
      customerName: "Ngozi",
      fields: { student: "Ada", grade: "JSS2", seats: 2, phone: "+234 803 123 4567" },
    });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(d).toMatchObject({
      amount: "15000.00",
      cardFee: "325.00",
      cardTotal: "15000.00",
      transferTotal: "15000.00",
      merchantBearsCost: true,
      channels: ["card", "bank_transfer"],
      status: "pending",
      currency: "NGN",
    });
    expect(d.checkoutUrl).toBe(`${target.url}/pay/${d.accessCode}`);
    const verify = await api.get(`/v1/payment/verify/${d.reference}`, { "x-api-key": m.testKey });
    expect(verify.body.data.metadata).toEqual({
      paymentLink: { id: link.body.data.id, slug, title: "Fees" },
      fields: { student: "Ada", grade: "JSS2", seats: "2", phone: "+234 803 123 4567" },
    });
    expect(verify.body.data.customer).toEqual({
      code: expect.stringMatching(/^CUS_/),
      email: "parent@example.com",
      name: "Ngozi",
    });
    const row = await testDb(target)
      .selectFrom("transactions")
      .select(["callback_url", "payment_link_id"])
      .where("reference", "=", d.reference)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      callback_url: "https://school.example.com/thanks",
      payment_link_id: link.body.data.id,
    });
  });

  it("pay: enforces the amount rule and the prompts with 400s naming the field", async () => {
    const m = await signup(api);
    const fixed = (await create(m, { title: "Fixed", amount: "100", metadata: { fields } })).body.data.slug;
    const open = (await create(m, { title: "Open", minAmount: "50", maxAmount: "500" })).body.data.slug;
    const ok = { student: "Ada", grade: "JSS1" };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [fixed, { fields: { grade: "JSS1" } }, "fields.student (Student name) is required"],
      [fixed, { fields: { student: "Ada" } }, "fields.grade (Grade) is required"],
      [fixed, { fields: { ...ok, grade: "SS3" } }, 'fields.grade (Grade) must be one of "JSS1", "JSS2"'],
      [
        fixed,
        { fields: { ...ok, parentEmail: "nope" } },
        "fields.parentEmail (Parent email) must be a valid email address",
      ],
      [fixed, { fields: { ...ok, phone: "call me" } }, "fields.phone (Phone) must be a phone number"],
      [fixed, { fields: { ...ok, seats: "two" } }, "fields.seats (Seats) must be a number"],
      [fixed, { fields: { ...ok, hacker: "x" } }, 'fields has unknown field "hacker"'],
      [fixed, { amount: "99", fields: ok }, "amount must be left out: this link has the fixed amount 100.00"],
      [open, {}, "amount is required"],
      [open, { amount: "49.99" }, "amount must be at least 50.00"],
      [open, { amount: "500.01" }, "amount must be at most 500.00"],
      [open, { amount: "5e2" }, "amount must be a decimal string"],
      [open, { amount: "100", email: "bad" }, "email must be a valid email address"],
    ];
    for (const [slug, body, message] of cases) {
      const res = await pay(slug, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.message).toContain(message);
    }
    const created = await testDb(target)
      .selectFrom("transactions")
      .select("id")
      .where("merchant_id", "=", m.id)
      .execute();
    expect(created).toHaveLength(0);
    const good = await pay(open, { amount: "123.45" });
    expect(good.status).toBe(201);
    expect(good.body.data.amount).toBe("123.45");
  });

  it("refuses an inactive, expired or used-up link with 409 payment_link_unavailable", async () => {
    const m = await signup(api);
    const slug = (await create(m, { title: "Once", amount: "10", usageLimit: 1 })).body.data.slug;
    const first = await pay(slug, { email: "payer@example.com" });
    expect(first.status).toBe(201);
    // Its customer asks for transfer details: a payment under way takes the link's one place.
    const va = await api.post(
      "/v1/payment/checkout/charge/bank-transfer",
      {},
      { "x-access-code": first.body.data.accessCode },
    );
    expect(va.status, va.text).toBe(200);
    const second = await pay(slug, {});
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      status: "failed",
      error: "payment_link_unavailable",
      message: expect.stringContaining("limit"),
    });
    // An abandoned payment gives its place back.
    const cancel = await api.post(
      "/v1/payment/checkout/cancel",
      {},
      { "x-access-code": first.body.data.accessCode },
    );
    expect(cancel.status).toBe(200);
    expect((await pay(slug, {})).status).toBe(201);

    const other = (await create(m, { title: "Closable", amount: "10" })).body.data.slug;
    const patch = await api.request("PATCH", `/v1/merchants/payment-links/${other}`, {
      body: { active: false },
      headers: bearer(m),
    });
    expect(patch.status).toBe(200);
    expect(patch.body.data.active).toBe(false);
    const inactive = await pay(other, {});
    expect(inactive.status).toBe(409);
    expect(inactive.body.message).toContain("deactivated");
    const display = await api.get(`/v1/merchants/payment-links/${other}/display`);
    expect(display.body.data).toMatchObject({
      active: false,
      unavailableReason: expect.stringContaining("deactivated"),
    });

    const expiring = (
      await create(m, { title: "Soon", amount: "10", expiresAt: new Date(Date.now() + 60_000).toISOString() })
    ).body.data;
    await testDb(target)
      .updateTable("payment_links")
      .set({ expires_at: Date.now() - 1 })
      .where("id", "=", expiring.id)
      .execute();
    const expired = await pay(expiring.slug, {});
    expect(expired.status).toBe(409);
    expect(expired.body.message).toContain("expired");
  });

  it("on a usage-limited link an unpaid checkout holds its place 30 minutes, or as long as its transfer window", async () => {
    const m = await signup(api);
    const db = () => testDb(target);
    const expiry = async (reference: string) =>
      Number(
        (
          await db()
            .selectFrom("transactions")
            .select("access_expires_at")
            .where("reference", "=", reference)
            .executeTakeFirstOrThrow()
        ).access_expires_at,
      );
    const expireCheckout = (reference: string) =>
      db()
        .updateTable("transactions")
        .set({ access_expires_at: Date.now() - 1000 })
        .where("reference", "=", reference)
        .execute();

    const limited = (await create(m, { title: "Seat", amount: "10", usageLimit: 1 })).body.data.slug;
    const unlimited = (await create(m, { title: "Tips", amount: "10" })).body.data.slug;
    const held = (await pay(limited, { email: "payer@example.com" })).body.data;
    const before = Date.now();
    expect(Math.abs((await expiry(held.reference)) - (before + 30 * 60_000))).toBeLessThan(60_000);
    const tip = (await pay(unlimited, {})).body.data;
    expect(Math.abs((await expiry(tip.reference)) - (before + 24 * 3_600_000))).toBeLessThan(60_000);
    // Nobody is paying for it yet: it does not use the link up (its place goes to whoever pays first).
    expect((await pay(limited, {})).status).toBe(201);

    // The customer asks for bank transfer details: the checkout now lives as long as the account's window,
    // so the page can follow the transfer to the end, and the place stays held meanwhile.
    const va = await api.post(
      "/v1/payment/checkout/charge/bank-transfer",
      {},
      { "x-access-code": held.accessCode },
    );
    expect(va.status).toBe(200);
    expect(await expiry(held.reference)).toBe(Date.parse(va.body.data.expiresAt));
    expect(Date.parse(va.body.data.expiresAt)).toBeGreaterThan(before + 29 * 60_000);
    expect((await pay(limited, {})).status).toBe(409);
    // Window closed and checkout expired, unpaid: the place is free again.
    await expireCheckout(held.reference);
    const next = await pay(limited, {});
    expect(next.status).toBe(201);
    // A new checkout does not hold the last free place; it takes it when it starts paying.
    expect((await api.get(`/v1/merchants/payment-links/${limited}`, bearer(m))).body.data).toMatchObject({
      usageLimit: 1,
      usageCount: 0,
    });
    expect(
      (
        await api.post("/v1/payment/checkout/charge/card", card(CARDS.success), {
          "x-access-code": next.body.data.accessCode,
        })
      ).body.data?.status,
    ).toBe("success");
    expect((await api.get(`/v1/merchants/payment-links/${limited}`, bearer(m))).body.data.usageCount).toBe(1);
    // The list counts each link on the page the same way (the expired checkout gives its place back).
    const listed = (await api.get("/v1/merchants/payment-links", bearer(m))).body.data.links as Array<{
      slug: string;
      usageCount: number;
    }>;
    expect(Object.fromEntries(listed.map((l) => [l.slug, l.usageCount]))).toEqual({
      [limited]: 1,
      [unlimited]: 1,
    });
  });

  it("a usage limit holds under 20 concurrent customers", async () => {
    const m = await signup(api);
    const slug = (await create(m, { title: "Limited", amount: "10", usageLimit: 3 })).body.data.slug;
    // Twenty start at once, then all pay at once: three are paid, the others are refused before any charge.
    const started = await Promise.all(Array.from({ length: 20 }, () => pay(slug, {})));
    expect(started.every((r) => r.status === 201)).toBe(true);
    const results = await Promise.all(
      started.map((r) =>
        api.post("/v1/payment/checkout/charge/card", card(CARDS.success), {
          "x-access-code": r.body.data.accessCode,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200 && r.body.data.status === "success")).toHaveLength(3);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(17);
    expect(new Set(refused.map((r) => r.body.error))).toEqual(new Set(["payment_link_unavailable"]));
    expect((await pay(slug, {})).status).toBe(409);
  });

  it("the start page renders the link as text, and 404s for an unknown slug", async () => {
    const m = await signup(api, { businessName: "Kola <script>alert(1)</script>" });
    const slug = (await create(m, { title: "Tickets <img src=x>", amount: "10" })).body.data.slug;
    const page = await fetch(`${target.url}/l/${slug}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Tickets &lt;img src=x&gt;");
    expect(html).toContain("Kola &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)</script>");
    const missing = await fetch(`${target.url}/l/does-not-exist-zz9`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("This payment link is not valid");
  });
});

describe("payment links on a production deployment", () => {
  it("are live links: paying one creates a live transaction", async () => {
    const api = client(production.url);
    const m = await signup(api);
    const link = await api.post(
      "/v1/merchants/payment-links",
      { title: "Live", amount: "10" },
      { authorization: `Bearer ${m.accessToken}` },
    );
    expect(link.status).toBe(201);
    const paid = await api.post(`/v1/merchants/payment-links/${link.body.data.slug}/pay`, {});
    expect(paid.status).toBe(201);
    const verify = await api.get(`/v1/payment/verify/${paid.body.data.reference}`, {
      "x-api-key": m.liveKey,
    });
    expect(verify.status).toBe(200);
  });
});
