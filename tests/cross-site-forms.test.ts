import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, signup } from "./helpers/api";
import { card } from "./helpers/channels";
import { type AppProc, cleanupHarness, freshDatabase, sleep, startApp } from "./helpers/webhook-harness";

/**
 * Every server action of the app (the forms of the checkout, the payment link and demo pages, the sandbox
 * bank's Approve and Decline, the console's sign-in and sign-up), sent from another site (`Origin:
 * http://evil.example`) or from a page with no origin (`Origin: null`), as a form posted without JavaScript and
 * as the page's code posts it (`Next-Action`): a 403 page in the product's words, nothing decided, and on the
 * server's stderr one log line per refusal, never a stack. The list of actions is read from the build itself
 * (its server reference manifest), so an action added later is covered or fails this suite.
 */
const ROOT = resolve(import.meta.dirname, "..");
const DIST = process.env.NEXT_DIST_DIR || ".next";
const ORIGINS = ["http://evil.example", "null"] as const;

type Action = { id: string; name: string; pages: string[] };

function serverActions(): Action[] {
  const manifest = JSON.parse(
    readFileSync(join(ROOT, DIST, "server/server-reference-manifest.json"), "utf8"),
  );
  return Object.entries(manifest.node as Record<string, { exportedName: string; workers: object }>).map(
    ([id, entry]) => ({ id, name: entry.exportedName, pages: Object.keys(entry.workers) }),
  );
}

let app: AppProc;
let paths: Record<string, string>;
let bankPage: { attempt: string; authorization: string; accessCode: string };

afterAll(() => cleanupHarness(), 60_000);

beforeAll(async () => {
  const db = await freshDatabase("sqlite");
  app = await startApp({ name: "cross-site-forms", databaseUrl: db.url, env: { LOG_LEVEL: "info" } });
  const api = client(app.url);
  const m = await signup(api);
  const payment = await api.post(
    "/v1/payment/initialize",
    { amount: "5000.00", email: "payer@example.com" },
    { "x-api-key": m.testKey },
  );
  const link = await api.post(
    "/v1/merchants/payment-links",
    { title: "Ticket", amount: "2500" },
    { authorization: `Bearer ${m.accessToken}` },
  );
  // A 3-D Secure card: the sandbox bank's page waits for Approve or Decline.
  const secure = await api.post(
    "/v1/payment/initialize",
    { amount: "5000.00", email: "payer@example.com" },
    { "x-api-key": m.testKey },
  );
  const charged = await api.post("/v1/payment/checkout/charge/card", card("4000000000003063"), {
    "x-access-code": secure.body.data.accessCode,
  });
  const url = new URL(charged.body.data.action.url, app.url);
  bankPage = {
    attempt: url.searchParams.get("attempt") ?? "",
    authorization: url.searchParams.get("authorization") ?? "",
    accessCode: secure.body.data.accessCode,
  };
  paths = {
    "app/pay/[accessCode]/page": `/pay/${payment.body.data.accessCode}`,
    "app/pay/sandbox/bank/page": `/pay/sandbox/bank?${url.searchParams}`,
    "app/l/[slug]/page": `/l/${link.body.data.slug}`,
    "app/demo/page": "/demo",
    "app/dashboard/(auth)/login/page": "/dashboard/login",
    "app/dashboard/(auth)/signup/page": "/dashboard/signup",
    // The refusal comes before the page is rendered: any token will do.
    "app/subscriptions/manage/[token]/page": "/subscriptions/manage/x",
  };
}, 120_000);

/**
 * The path to send a page's action to: the pages above, and any console page by its route (a parameter as
 * `x`): the refusal comes before the page is rendered, so no session is needed.
 */
function pathFor(page: string): string {
  const known = paths[page];
  if (known) return known;
  if (!page.startsWith("app/dashboard/")) return "";
  return page
    .replace(/^app/, "")
    .replace(/\/\([^)]+\)/g, "")
    .replace(/\[[^\]]+\]/g, "x")
    .replace(/\/page$/, "");
}

/** What each action's form would carry: enough that, sent from the page, it would decide something. */
function fields(action: Action): Record<string, string> {
  switch (action.name) {
    case "answerBankPage":
      return { attempt: bankPage.attempt, authorization: bankPage.authorization, decision: "approve" };
    case "signIn":
      return { email: "owner@example.com", password: "correct horse battery staple" };
    case "signUp":
      return {
        businessName: "Evil Shop",
        email: "evil@example.com",
        password: "correct horse battery staple",
      };
    default:
      return { intent: "cancel", email: "payer@example.com" };
  }
}

function formBody(action: Action): FormData {
  const form = new FormData();
  form.set(`$ACTION_ID_${action.id}`, "");
  for (const [k, v] of Object.entries(fields(action))) form.set(k, v);
  return form;
}

async function send(path: string, action: Action, origin: string, kind: "form" | "fetch") {
  const headers: Record<string, string> = { origin, "x-forwarded-for": "10.66.0.1" };
  let body: BodyInit;
  if (kind === "fetch") {
    headers["next-action"] = action.id;
    headers["content-type"] = "text/plain;charset=UTF-8";
    body = JSON.stringify([fields(action)]);
  } else {
    body = formBody(action);
  }
  const before = app.errorOutput().length;
  const res = await fetch(`${app.url}${path}`, { method: "POST", headers, body, redirect: "manual" });
  const text = await res.text();
  // The log line is written as the answer goes; give stderr a moment to arrive.
  await sleep(100);
  return { res, text, stderr: app.errorOutput().slice(before) };
}

function expectRefused({ res, text, stderr }: Awaited<ReturnType<typeof send>>, path: string) {
  expect(res.status, `${path}: ${text.slice(0, 300)}`).toBe(403);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  expect(res.headers.get("set-cookie")).toBeNull();
  expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  expect(text).toContain("This form came from another site");
  expect(text).toContain("nothing was done");
  expect(text).not.toMatch(/Invalid Server Actions|Error:|at async/);
  // One line on stderr, the service's own, naming what was refused; no stack, no Next.js error.
  const lines = stderr.split("\n").filter(Boolean);
  expect(lines, stderr).toHaveLength(1);
  const line = JSON.parse(lines[0] as string);
  expect(line).toMatchObject({ level: "warn", msg: "cross-site form refused", path: path.split("?")[0] });
  expect(line.requestId).toBe(res.headers.get("x-request-id"));
}

describe("server actions from another site or a null origin", () => {
  it("the build's server actions are the ones this suite knows the pages of", () => {
    const actions = serverActions();
    expect(actions.map((a) => a.name).sort()).toEqual(
      [
        "acceptInvite",
        "answerBankPage",
        "askPasswordReset",
        "cancelAtPeriodEndForm",
        "changeRoleAction",
        "chooseCheckoutLanguage",
        "inviteAction",
        "removeAction",
        "requireTwoFactorAction",
        "setNewPassword",
        "signInCode",
        "switchMerchantAction",
        "twoFactorAction",
        "payLinkForm",
        "payWithAnotherCardForm",
        "signIn",
        "signUp",
        "startDemoCheckout",
        "startLinkPayment",
        "submitCheckout",
      ].sort(),
    );
    for (const action of actions)
      for (const page of action.pages) expect(pathFor(page), `${action.name} on ${page}`).toMatch(/^\//);
  });

  it("each one, on each of its pages, as a form and as the page's code sends it, is answered 403 and logged once", async () => {
    let sent = 0;
    for (const action of serverActions()) {
      for (const page of action.pages) {
        const path = pathFor(page);
        for (const origin of ORIGINS) {
          for (const kind of ["form", "fetch"] as const) {
            expectRefused(await send(path, action, origin, kind), path);
            sent++;
          }
        }
      }
    }
    expect(sent).toBeGreaterThanOrEqual(9 * 4);
  }, 120_000);

  it("nothing is decided: the sandbox bank's Approve approves nothing, sign-up makes no merchant, sign-in sets no cookie", async () => {
    const status = async () =>
      (await client(app.url).get("/v1/payment/checkout/verify", { "x-access-code": bankPage.accessCode }))
        .body.data.status;
    const waiting = await status();
    expect(waiting).not.toBe("success");
    // The bank's page still offers Approve: the confirmation was not answered.
    const page = await fetch(`${app.url}${paths["app/pay/sandbox/bank/page"]}`);
    expect(await page.text()).toContain("Approve");
    expect(await status()).toBe(waiting);
    const taken = await client(app.url).post("/v1/merchants/auth/login", {
      email: "evil@example.com",
      password: "correct horse battery staple",
    });
    expect(taken.status).toBe(401);
  });

  it("any other page, an unknown path and a static file refuse the same way, never 500", async () => {
    const [signIn] = serverActions().filter((a) => a.name === "signIn");
    if (!signIn) throw new Error("no signIn action");
    for (const path of ["/", "/docs", "/dashboard", "/no/such/page", "/robots.txt"])
      for (const origin of ORIGINS) expectRefused(await send(path, signIn, origin, "fetch"), path);
  });

  it("in the customer's language on the hosted pages", async () => {
    const [submit] = serverActions().filter((a) => a.name === "submitCheckout");
    if (!submit) throw new Error("no submitCheckout action");
    const path = paths["app/pay/[accessCode]/page"] as string;
    const res = await fetch(`${app.url}${path}?lang=fr`, {
      method: "POST",
      headers: { origin: "http://evil.example", "next-action": submit.id, "content-type": "text/plain" },
      body: "[]",
    });
    expect(res.status).toBe(403);
    const text = await res.text();
    expect(text).toContain('lang="fr"');
    expect(text).not.toContain("This form came from another site");
  });

  it("the same form from the service's own page is answered: the sandbox bank's Decline declines", async () => {
    const [answer] = serverActions().filter((a) => a.name === "answerBankPage");
    if (!answer) throw new Error("no answerBankPage action");
    const form = new FormData();
    form.set(`$ACTION_ID_${answer.id}`, "");
    form.set("attempt", bankPage.attempt);
    form.set("authorization", bankPage.authorization);
    form.set("decision", "decline");
    const before = app.errorOutput().length;
    const res = await fetch(`${app.url}${paths["app/pay/sandbox/bank/page"]}`, {
      method: "POST",
      headers: { origin: app.url },
      body: form,
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toContain(`/pay/${bankPage.accessCode}`);
    expect(app.errorOutput().slice(before)).toBe("");
    const page = await fetch(`${app.url}${paths["app/pay/sandbox/bank/page"]}`);
    expect(await page.text()).toContain("Nothing to confirm here");
  });
});
