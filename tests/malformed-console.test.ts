import { beforeAll, describe, expect, it } from "vitest";
import {
  type ApiResponse,
  client,
  initialize,
  type Merchant,
  randomAddress,
  signup,
  targets,
} from "./helpers/api";
import { CARDS, card } from "./helpers/channels";
import { assertFailure, type Expect, invalid } from "./helpers/malformed-cases";

/**
 * Malformed query strings and path segments to the merchant console (/dashboard), as tests/malformed*.test.ts
 * sends them to the API: NUL bytes, invalid UTF-8 percent-encodings (stray continuation bytes, an overlong
 * encoding, an encoded surrogate, a truncated sequence), overlong values, wrong types and repeated or
 * bracketed parameters. Every page answers in time with a page of its own (a 200 naming the parameter and
 * the rule in an alert, or a 4xx), every JSON route with the 4xx failure envelope: never a 500, never a stack
 * trace, never a download that does not end.
 */

type Page = { status: number; type: string; text: string };

/** Signs of internals that no answer may show (as tests/helpers/malformed-cases.ts's STACK_SIGNS). */
const INTERNALS: ReadonlyArray<[RegExp, string]> = [
  [/\bat\s+\S+\s+\([^)]*:\d+:\d+\)/, "a stack frame"],
  [/node_modules/, "node_modules"],
  [/\.(?:ts|tsx|mts|js|mjs|cjs):\d+:\d+/, "a source position"],
  [/(?:RangeError|TypeError|ReferenceError|SyntaxError):/, "an exception name"],
  [/invalid byte sequence|violates|duplicate key|SQLITE_|syntax error at/i, "a database error"],
];

/**
 * Values every filter parameter is tried with. Next hands routes and pages the address decoded and encoded
 * again, so a lone % or %ZZ reaches them as the text "%" or "%ZZ" (a fine search), and bytes that are not
 * UTF-8 as U+FFFD, which lib/http/query.ts refuses.
 */
const AS_TEXT = new Set(["%", "%ZZ"]);
const BAD_VALUES: ReadonlyArray<[string, string]> = [
  ["a NUL", "%00"],
  ["a NUL inside", "a%00b"],
  ["a stray continuation byte", "%80"],
  ["an invalid byte", "%FF"],
  ["an overlong encoding of /", "%C0%AF"],
  ["an encoded surrogate", "%ED%A0%80"],
  ["a truncated sequence", "%E2%82"],
  ["a lone %", "%"],
  ["%ZZ", "%ZZ"],
  ["5,000 characters", "x".repeat(5000)],
];

describe.each(targets)("malformed console input on $name", (target) => {
  const api = client(target.url);
  let merchant: Merchant;
  let cookie: string;
  let reference: string;

  beforeAll(async () => {
    merchant = await signup(api, { businessName: "Console Sweep" });
    // The console's session is the API's session token in a cookie (lib/console/cookies.ts).
    cookie = `paygate_session=${merchant.accessToken}`;
    const init = await initialize(api, merchant.testKey, { amount: "2500", email: "sweep@example.com" });
    expect(init.status, init.text).toBe(201);
    reference = init.body.data.reference;
    const paid = await api.post("/v1/payment/checkout/charge/card", card(CARDS.success), {
      "x-access-code": init.body.data.accessCode,
    });
    expect(paid.body.data.status).toBe("success");
  });

  /** GET a console address as a signed-in browser would, giving up after 15 s (a hung answer fails). */
  async function get(path: string): Promise<Page & { headers: Headers }> {
    const res = await fetch(`${target.url}${path}`, {
      headers: { cookie, "x-forwarded-for": randomAddress() },
      redirect: "manual",
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, type: res.headers.get("content-type") ?? "", text, headers: res.headers };
  }

  /** Whether `message` names `field` as a word of its own (a one-letter field like q is in many words). */
  function namesField(message: string, field: string): boolean {
    const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(?:^|[\\s;:"(])${escaped}(?:[\\s;:")]|$)`).test(message);
  }

  function assertNoInternals(page: Page, seen: string) {
    for (const [pattern, what] of INTERNALS)
      expect(pattern.test(page.text), `no ${what}: ${seen}`).toBe(false);
  }

  /** A page's answer to a bad parameter: its own page, 200 with an alert naming `field`, or a 4xx. */
  async function expectPageRefuses(path: string, field: string) {
    const page = await get(path);
    const seen = `${path.slice(0, 120)} -> ${page.status} ${page.text.slice(0, 200)}`;
    expect(page.status, `no 5xx: ${seen}`).toBeLessThan(500);
    expect(page.type, seen).toContain("text/html");
    assertNoInternals(page, seen);
    if (page.status === 200) {
      const alert = (/<p[^>]*role="alert"[^>]*>([\s\S]*?)<\/p>/.exec(page.text)?.[1] ?? "")
        .replace(/<!-- -->/g, "")
        .replaceAll("&quot;", '"')
        .replaceAll("&#x27;", "'")
        .replaceAll("&amp;", "&");
      expect(alert, `an alert on ${seen}`).not.toBe("");
      expect(namesField(alert, field), `the alert names ${field}: ${alert}`).toBe(true);
    } else {
      expect(page.status, seen).toBeGreaterThanOrEqual(400);
    }
  }

  /** A JSON route's answer: the failure envelope (tests/helpers/malformed-cases.ts's assertFailure). */
  async function expectApiRefuses(path: string, want: Expect) {
    const res = await get(path);
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch {
      body = undefined;
    }
    const answer: ApiResponse = { status: res.status, headers: res.headers, body, text: res.text };
    assertFailure(answer, "GET", want, "console");
    for (const field of want.mentions ?? []) {
      const message = String((body as { message?: unknown }).message);
      expect(namesField(message, field), `the message names ${field}: ${message}`).toBe(true);
    }
  }

  describe("the payments page and its CSV export", () => {
    const fields = ["q", "status", "channel", "currency", "from", "to", "cursor"];
    for (const field of fields) {
      for (const [label, value] of BAD_VALUES) {
        if (field === "q" && AS_TEXT.has(value)) {
          // Searching for "%" is a search like any other.
          it(`q with ${label}: a search like any other`, async () => {
            const page = await get(`/dashboard/payments?q=${value}`);
            expect(page.status).toBe(200);
            assertNoInternals(page, page.text.slice(0, 200));
            const csv = await get(`/dashboard/api/payments/export?q=${value}`);
            expect(csv.status).toBe(200);
            expect(csv.text.trim().split("\n")).toHaveLength(1);
          });
          continue;
        }
        it(`${field} with ${label}: the page names it`, () =>
          expectPageRefuses(`/dashboard/payments?${field}=${value}`, field));
        if (field === "cursor") continue; // the export has no pages
        it(`${field} with ${label}: the export refuses it (400 naming it) and ends`, () =>
          expectApiRefuses(`/dashboard/api/payments/export?${field}=${value}`, invalid(field)));
      }
    }
    const wrong: ReadonlyArray<[string, string, string]> = [
      ["status of another type", "status=123", "status"],
      ["a status with a trailing space", "status=success%20", "status"],
      ["a date that is no date", "from=2026-13-45", "from"],
      ["a date that is a word", "to=yesterday", "to"],
      ["a date as a number", "from=1764201600000", "from"],
      ["a repeated parameter with a NUL", "q=ok&q=%00", "q"],
      ["a bracketed parameter", "status[]=pending", "status[]"],
      ["an indexed parameter", "q[0]=x", "q[0]"],
      ["an unknown parameter", "page=2", "page"],
    ];
    for (const [label, query, field] of wrong) {
      it(`${label}: the page names it`, () => expectPageRefuses(`/dashboard/payments?${query}`, field));
      it(`${label}: the export refuses it`, () =>
        expectApiRefuses(`/dashboard/api/payments/export?${query}`, invalid(field)));
    }

    it("a good filter still lists and exports: the paid payment is found by its reference", async () => {
      const page = await get(`/dashboard/payments?q=${reference}&status=success`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(reference);
      const csv = await get(`/dashboard/api/payments/export?q=${reference}`);
      expect(csv.status).toBe(200);
      expect(csv.text.trim().split("\n")).toHaveLength(2);
      expect(csv.text).toContain(reference);
    });
  });

  describe("the refunds page and the console's JSON lists", () => {
    for (const [label, value] of BAD_VALUES) {
      it(`refunds page status with ${label}`, () =>
        expectPageRefuses(`/dashboard/refunds?status=${value}`, "status"));
      it(`refunds page cursor with ${label}`, () =>
        expectPageRefuses(`/dashboard/refunds?cursor=${value}`, "cursor"));
      it(`GET /dashboard/api/refunds?reference= with ${label}`, () =>
        expectApiRefuses(`/dashboard/api/refunds?reference=${value}`, invalid("reference")));
      it(`GET /dashboard/api/events?type= with ${label}`, () =>
        expectApiRefuses(`/dashboard/api/events?type=${value}`, invalid("type")));
      it(`GET /dashboard/api/events?reference= with ${label}`, () =>
        expectApiRefuses(`/dashboard/api/events?reference=${value}`, invalid("reference")));
    }
    it("refunds page: a repeated status, a bracketed one, an unknown parameter", async () => {
      await expectPageRefuses("/dashboard/refunds?status=pending&status=%00", "status");
      await expectPageRefuses("/dashboard/refunds?status[]=pending", "status[]");
      await expectPageRefuses("/dashboard/refunds?sort=desc", "sort");
    });
    it("GET /dashboard/api/events with a bracketed and an unknown parameter", async () => {
      await expectApiRefuses("/dashboard/api/events?type[]=payment.completed", invalid("type[]"));
      await expectApiRefuses("/dashboard/api/events?order=asc", invalid("order"));
    });
  });

  describe("path segments", () => {
    const segments: ReadonlyArray<[string, string]> = [
      ["a NUL", "%00"],
      ["a reference with a NUL", "PAY_TXN_abc%00"],
      ["an invalid byte", "%FF"],
      ["an overlong encoding", "%C0%AF"],
      ["an encoded surrogate", "%ED%A0%80"],
      ["5,000 characters", "P".repeat(5000)],
    ];
    for (const [label, segment] of segments) {
      it(`/dashboard/payments/{reference} with ${label}: a page, not a 500`, async () => {
        const page = await get(`/dashboard/payments/${segment}`);
        expect(page.status, page.text.slice(0, 200)).toBeLessThan(500);
        assertNoInternals(page, `${page.status} ${page.text.slice(0, 200)}`);
      });
      it(`/dashboard/links/{slug} with ${label}: a page, not a 500`, async () => {
        const page = await get(`/dashboard/links/${segment}`);
        expect(page.status, page.text.slice(0, 200)).toBeLessThan(500);
        assertNoInternals(page, `${page.status} ${page.text.slice(0, 200)}`);
      });
      it(`GET /dashboard/api/payments/{reference} with ${label}: a 4xx envelope`, () =>
        expectApiRefuses(`/dashboard/api/payments/${segment}`, { status: [400, 404] }));
    }
  });

  describe("the sign-in page", () => {
    for (const [label, value] of BAD_VALUES) {
      it(`next with ${label}: the sign-in page, not a 500`, async () => {
        const page = await fetch(`${target.url}/dashboard/login?next=${value}&expired=${value}`, {
          headers: { "x-forwarded-for": randomAddress() },
          redirect: "manual",
          signal: AbortSignal.timeout(15_000),
        });
        const text = await page.text();
        expect(page.status, text.slice(0, 200)).toBeLessThan(500);
        assertNoInternals({ status: page.status, type: "", text }, text.slice(0, 200));
      });
    }
  });
});
