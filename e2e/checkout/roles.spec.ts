import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { chooseBank, expect, initialize, test } from "../fixtures";

/**
 * The table "Stable roles and names" of docs/testing.md is a promise to merchants' QA teams and the contract
 * of the QA kit: every name it lists exists on the real page in its state, and every role and name the kit's
 * source (qa-kit/index.mjs and its examples) uses is in it.
 */

const ROOT = join(import.meta.dirname, "../..");

type Entry = { where: string; role: string; name: string };

/** The table's rows, one entry per role and name; a name ending in "…" is a prefix. */
function stableNames(): Entry[] {
  const doc = readFileSync(join(ROOT, "docs/testing.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Stable roles and names"));
  const entries: Entry[] = [];
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length !== 5 || cells[1] === "Where" || cells[1]?.startsWith("---")) continue;
    const [, where = "", roleCell = "", nameCell = ""] = cells;
    const roles = [...roleCell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    const names = [...nameCell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    for (const role of roles) for (const name of names) entries.push({ where, role, name });
  }
  return entries;
}

const TABLE = stableNames();
const key = (e: { role: string; name: string }) => `${e.role} "${e.name}"`;

/** The table's name as a Playwright name option: exact, or a prefix. */
function nameOption(name: string): string | RegExp {
  if (!name.endsWith("…")) return name;
  const prefix = name.slice(0, -1).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${prefix}`);
}

/** Does the table list this role with a name that `name` (a literal or the kit's regex) stands for? */
function listed(role: string, name: string | RegExp): boolean {
  return TABLE.some((e) => {
    if (e.role !== role) return false;
    if (typeof name === "string")
      return e.name.endsWith("…") ? name.startsWith(e.name.slice(0, -1)) : e.name === name;
    // A regex of the kit: it must match the table's name (a prefix completed with a sample).
    return name.test(e.name.endsWith("…") ? `${e.name.slice(0, -1)}NGN 5,000.00` : e.name);
  });
}

/** The roles and names the kit's source asks the page for. Fails on a form it cannot read. */
function namesTheKitUses(): Array<{ role: string; name: string | RegExp; file: string }> {
  const found: Array<{ role: string; name: string | RegExp; file: string }> = [];
  for (const file of ["qa-kit/index.mjs", "qa-kit/examples/outcomes.spec.ts"]) {
    const source = readFileSync(join(ROOT, file), "utf8");
    const literal = (s: string) => [...s.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
    // Values the kit passes by name: result headings, channel tabs, the decision buttons, the default bank.
    const headings = literal(source.match(/RESULT_HEADINGS = Object\.freeze\(\{([^}]*)\}/)?.[1] ?? "");
    const channels = [...source.matchAll(/this\.choose\("([^"]+)"\)/g)].map((m) => m[1] as string);
    const decisions = literal(source.match(/const name = decision === [^;]+;/)?.[0] ?? "").slice(1);
    const banks = [...source.matchAll(/bank = "([^"]+)"/g)].map((m) => m[1] as string);
    const variables: Record<string, string[]> = {
      "RESULT_HEADINGS[status]": headings,
      method: channels,
      name: decisions,
      bank: banks,
    };
    const nameExpr = /"(?:[^"\\]|\\.)*"|\/(?:[^/\\]|\\.)+\/\w*|[\w.[\]]+/.source;
    const call = new RegExp(`getByRole\\(\\s*"(\\w+)"(?:,\\s*\\{\\s*name(?::\\s*(${nameExpr}))?)?`, "g");
    for (const m of source.matchAll(call)) {
      const [, role = "", raw] = m;
      const expr = (raw ?? "name").trim();
      if (expr.startsWith('"')) found.push({ role, name: JSON.parse(expr), file });
      else if (expr.startsWith("/")) {
        const [, body = "", flags = ""] = expr.match(/^\/(.+)\/(\w*)$/) ?? [];
        found.push({ role, name: new RegExp(body, flags), file });
      } else {
        const values = variables[expr];
        if (!values?.length)
          throw new Error(`${file}: cannot read the name of getByRole("${role}", { name: ${expr} })`);
        for (const name of values) found.push({ role, name, file });
      }
    }
    // Labels name form fields: the table lists them under their role (textbox or combobox).
    for (const m of source.matchAll(/getByLabel\("([^"]+)"\)/g))
      found.push({ role: "label", name: m[1] as string, file });
  }
  return found;
}

test("every role and name the QA kit uses is in the table of docs/testing.md", () => {
  expect(TABLE.length).toBeGreaterThan(30);
  const used = namesTheKitUses();
  expect(used.length).toBeGreaterThan(20);
  const missing = used
    .filter(({ role, name }) =>
      role === "label" ? !listed("textbox", name) && !listed("combobox", name) : !listed(role, name),
    )
    .map(({ role, name, file }) => `${file}: ${role} ${name}`);
  expect(missing, "used by the kit but not in the table").toEqual([]);
});

test.describe("every role and name of the table is on the page in its state", () => {
  // In order: the last test checks that the others covered every row.
  test.describe.configure({ mode: "serial" });
  const checked = new Set<string>();

  /** The table's entries of `where` (all, or those named) are on the page now. */
  async function expectListed(page: Page, where: string, names?: string[]) {
    const rows = TABLE.filter((e) => e.where === where && (!names || names.includes(e.name)));
    expect(rows.length, `the table has rows under "${where}"`).toBeGreaterThan(0);
    for (const name of names ?? [])
      expect(
        rows.map((r) => r.name),
        `"${where}" lists ${name}`,
      ).toContain(name);
    for (const row of rows) {
      const locator = page.getByRole(row.role as Parameters<Page["getByRole"]>[0], {
        name: nameOption(row.name),
        exact: !row.name.endsWith("…"),
      });
      // Hidden tab panels stay mounted: one of them is enough, the one shown.
      await expect(locator.first(), `${where}: ${key(row)}`).toBeAttached();
      checked.add(key(row) + where);
    }
  }

  test("card: choice, form, one-time password, result with its way back", async ({
    page,
    request,
    merchant,
  }) => {
    const session = await initialize(request, merchant, { callbackUrl: "https://shop.example/back" });
    await page.route("https://shop.example/**", (r) => r.fulfill({ body: "shop" }));
    await page.goto(session.checkoutUrl);
    await expectListed(page, "Channel choice");
    await expectListed(page, "Cancel", ["Cancel payment"]);
    // A tab panel is in the accessibility tree only while its tab is chosen.
    for (const channel of new Set(TABLE.filter((e) => e.where === "Each channel").map((e) => e.name))) {
      await page.getByRole("tab", { name: channel, exact: true }).click();
      await expectListed(page, "Each channel", [channel]);
    }
    await page.getByRole("tab", { name: "Card", exact: true }).click();
    await expect(page.getByRole("button", { name: /^Pay / })).toBeEnabled();
    await expectListed(page, "Card", ["Card number", "Expiry (MM/YY)", "CVV", "Pay …"]);
    await page.getByLabel("Card number").fill("4000000000003220");
    await page.getByLabel("Expiry (MM/YY)").fill("12/34");
    await page.getByLabel("CVV").fill("123");
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByRole("heading", { name: "Enter the one-time password" })).toBeVisible();
    await expectListed(page, "One-time password");
    await page.getByLabel("One-time password").fill("123456");
    await page.getByRole("button", { name: /^Confirm payment/ }).click();
    await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
    await expectListed(page, "Result", ["Payment successful", "Return now", "Stay on this page"]);
    await page.getByRole("button", { name: "Stay on this page" }).click();
    await expectListed(page, "Result", ["Return to …"]);
  });

  test("card: 3-D Secure, the sandbox bank's page", async ({ page, request, merchant }) => {
    await page.goto((await initialize(request, merchant)).checkoutUrl);
    await expect(page.getByRole("button", { name: /^Pay / })).toBeEnabled();
    await page.getByLabel("Card number").fill("4000000000003063");
    await page.getByLabel("Expiry (MM/YY)").fill("12/34");
    await page.getByLabel("CVV").fill("123");
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByRole("link", { name: "Continue to your bank" })).toBeVisible();
    await expectListed(page, "3-D Secure");
    await page.getByRole("link", { name: "Continue to your bank" }).click();
    await expect(page.getByRole("button", { name: "Approve" })).toBeVisible();
    await expectListed(page, "Sandbox bank's page");
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  });

  test("card declined; cancel", async ({ page, request, merchant }) => {
    await page.goto((await initialize(request, merchant)).checkoutUrl);
    await page.getByRole("tab", { name: "Card", exact: true }).click();
    await expect(page.getByRole("button", { name: /^Pay / })).toBeEnabled();
    await page.getByLabel("Card number").fill("4000000000000002");
    await page.getByLabel("Expiry (MM/YY)").fill("12/34");
    await page.getByLabel("CVV").fill("123");
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByRole("heading", { name: "Payment declined" })).toBeVisible();
    await expectListed(page, "Result", ["Payment declined"]);
    await expectListed(page, "Card", ["Try another card"]);

    await page.goto((await initialize(request, merchant)).checkoutUrl);
    await page.getByRole("button", { name: "Cancel payment" }).click();
    await expectListed(page, "Cancel", ["Yes, cancel payment"]);
    await page.getByRole("button", { name: "Yes, cancel payment" }).click();
    await expect(page.getByRole("heading", { name: "Payment cancelled" })).toBeVisible();
    await expectListed(page, "Result", ["Payment cancelled"]);
  });

  test("bank transfer: the account, its expiry, the test actions, a failed payment", async ({
    page,
    request,
    merchant,
  }) => {
    const session = await initialize(request, merchant);
    await page.goto(session.checkoutUrl);
    await page.getByRole("tab", { name: "Bank transfer" }).click();
    await expectListed(page, "Bank transfer", ["Get account number"]);
    await page.getByRole("button", { name: "Get account number" }).click();
    await expect(page.getByRole("heading", { name: /^Transfer / })).toBeVisible();
    await expectListed(page, "Bank transfer", ["Transfer …"]);
    await expectListed(page, "Test mode actions", ["Send the exact amount", "Fail the payment"]);
    const moved = await request.post("/v1/sandbox/clock/advance", {
      data: { reference: session.reference, seconds: 1800 },
      headers: { "x-api-key": merchant.secretKey },
    });
    expect(moved.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "This account number has expired" })).toBeVisible();
    await expectListed(page, "Bank transfer", [
      "This account number has expired",
      "Get a new account number",
    ]);
    await page.getByRole("button", { name: "Get a new account number" }).click();
    await page.getByRole("button", { name: "Fail the payment" }).click();
    await expect(page.getByRole("heading", { name: "Payment failed" })).toBeVisible();
    await expectListed(page, "Result", ["Payment failed"]);
  });

  test("bank payment and USSD: bank, code, approval, decline", async ({ page, request, merchant }) => {
    await page.goto((await initialize(request, merchant)).checkoutUrl);
    await page.getByRole("tab", { name: "Bank payment" }).click();
    const bankPanel = page.getByRole("tabpanel", { name: "Bank payment" });
    await bankPanel.getByRole("combobox", { name: "Your bank" }).fill("Zenith Bank");
    await expectListed(page, "Bank payment", ["Your bank", "Zenith Bank", "Pay …"]);
    await page.getByRole("option", { name: "Zenith Bank", exact: true }).click();
    await bankPanel.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByRole("button", { name: "Decline the payment" })).toBeVisible();
    await expectListed(page, "Test mode actions", ["Approve the payment", "Decline the payment"]);
    await page.getByRole("button", { name: "Decline the payment" }).click();
    await expect(page.getByRole("heading", { name: "The payment was not approved" })).toBeVisible();
    await expectListed(page, "Approval wait");

    await page.goto((await initialize(request, merchant)).checkoutUrl);
    await page.getByRole("tab", { name: "USSD" }).click();
    const ussd = page.getByRole("tabpanel", { name: "USSD" });
    await expectListed(page, "USSD", ["Your bank", "Phone number", "Get USSD code"]);
    await ussd.getByRole("combobox", { name: "Your bank" }).fill("Zenith Bank");
    await expectListed(page, "USSD", ["Zenith Bank"]);
    await chooseBank(page, ussd, "Zenith Bank");
    await ussd.getByLabel("Phone number").fill("08031234567");
    await ussd.getByRole("button", { name: "Get USSD code" }).click();
    await expect(page.getByRole("heading", { name: "Dial this code on your phone" })).toBeVisible();
    await expectListed(page, "USSD", ["Dial this code on your phone"]);
    await page.getByRole("button", { name: "Approve the payment" }).click();
    await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  });

  test("saving the card: the box of a payment that offers it", async ({ page, request, merchant }) => {
    const res = await request.post("/v1/payment/initialize", {
      data: { amount: "100.00", email: "roles@example.com", saveCard: "optional" },
      headers: { "x-api-key": merchant.secretKey },
    });
    await page.goto((await res.json()).data.checkoutUrl);
    await expectListed(page, "Saving the card");
  });

  test("no row of the table is left unchecked", () => {
    const unchecked = TABLE.filter((e) => !checked.has(key(e) + e.where)).map((e) => `${e.where}: ${key(e)}`);
    expect(unchecked, "rows of the table no test above checks on the page").toEqual([]);
  });
});
