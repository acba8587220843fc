import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { presentAuthorizationCharge } from "@/lib/channels/present-authorization-charge";
import { presentVirtualAccount } from "@/lib/channels/present-virtual-account";
import { ChargeAuthorizationResponse, VirtualAccountResponse } from "@/lib/channels/responses";
import { presentAuthorization, presentCustomer } from "@/lib/customers/present";
import { AuthorizationResponse, CustomerResponse } from "@/lib/customers/responses";
import { presentDisplay, presentLink } from "@/lib/links/present";
import { LinkDisplayResponse, LinkResponse } from "@/lib/links/responses";
import { presentMerchant, presentSettings } from "@/lib/merchants/present";
import { LoginResponse, SettingsResponse } from "@/lib/merchants/responses";
import { presentCheckoutRecord, presentSession, presentVerified } from "@/lib/payments/present";
import { CheckoutRecordResponse, SessionResponse, VerifiedResponse } from "@/lib/payments/responses";
import { presentRefund } from "@/lib/refunds/present";
import { RefundResponse } from "@/lib/refunds/responses";
import { presentEndpoint } from "@/lib/webhooks/present";
import { EndpointResponse, EventResponse } from "@/lib/webhooks/responses";
import { SPECIMENS, specimenEvent } from "./examples";

/**
 * Every presenter's output, from representative rows in the states that change its shape, parsed with the
 * response schema the document describes it by. Strict: the parse must give back exactly what went in, so a
 * field the presenter sends and the schema does not declare (zod drops it) fails as surely as a missing one.
 */
function expectStrict(schema: z.ZodType, value: unknown, what: string) {
  const parsed = schema.safeParse(value);
  expect(parsed.success, `${what}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  expect(parsed.data, `${what}: fields the schema does not declare`).toStrictEqual(value);
}

const { paid, refund, link, endpoint, merchant, virtualAccount, customer, authorization } = SPECIMENS;
const pending = {
  ...paid,
  status: "pending",
  channel: null,
  fees_minor: null,
  total_minor: null,
  amount_settled_minor: null,
  paid_at: null,
  metadata: null,
  email: null,
  customer_name: null,
  amount_refunded_minor: 0n,
};
const awaiting = {
  ...pending,
  status: "awaiting_transfer",
  mismatch_expected_minor: 505_000n,
  mismatch_received_minor: 10_000n,
};

describe("presenters and their response schemas", () => {
  it("transactions: session, verified, checkout record, in each state", () => {
    for (const row of [paid, pending, awaiting]) {
      expectStrict(SessionResponse, presentSession(row), `presentSession ${row.status}`);
      expectStrict(VerifiedResponse, presentVerified(row), `presentVerified ${row.status}`);
      expectStrict(
        VerifiedResponse,
        presentVerified(row, authorization),
        `presentVerified ${row.status}, saved card`,
      );
      expectStrict(CheckoutRecordResponse, presentCheckoutRecord(row), `presentCheckoutRecord ${row.status}`);
    }
    const split = { ...pending, distribution: '{"acct_1":"300000","acct_2":"200000"}' };
    expectStrict(SessionResponse, presentSession(split), "presentSession with a distribution");
    expect(presentCheckoutRecord(awaiting).amountMismatch).toEqual({
      expected: "5050.00",
      received: "100.00",
      due: "4950.00",
    });
  });

  it("the bank transfer's virtual account", () => {
    expectStrict(
      VirtualAccountResponse,
      presentVirtualAccount(awaiting, virtualAccount, virtualAccount.created_at),
      "presentVirtualAccount",
    );
  });

  it("refunds: merchant and automatic, pending, processed and failed", () => {
    const rows = [
      refund,
      { ...refund, status: "pending", processed_at: null, rail_reference: null },
      { ...refund, status: "failed", failure_reason: "account_closed" },
      { ...refund, type: "automatic", reason: "unknown_account", reference: null, transaction_id: null },
    ];
    for (const row of rows) expectStrict(RefundResponse, presentRefund(row), `presentRefund ${row.status}`);
  });

  it("payment links: the merchant's record and the public display, active and not", () => {
    const open = { ...link, amount_minor: null, min_amount_minor: 100_000n, max_amount_minor: 5_000_000n };
    const expired = { ...link, expires_at: 1, active: 1 };
    const off = {
      ...link,
      active: 0,
      description: null,
      redirect_url: null,
      usage_limit: null,
      fields: "[]",
    };
    for (const row of [link, open, expired, off]) {
      expectStrict(LinkResponse, presentLink(row, 3), `presentLink ${row.slug}`);
      expectStrict(LinkDisplayResponse, presentDisplay(row, 3, merchant), `presentDisplay ${row.slug}`);
    }
    const cardOnly = { ...merchant, channels: '["card"]', logo_url: "https://shop.example/logo.png" };
    expectStrict(LinkDisplayResponse, presentDisplay(link, 0, cardOnly), "presentDisplay, card only");
  });

  it("merchants: settings (default and own fees) and the merchant of a session", () => {
    expectStrict(SettingsResponse, presentSettings(merchant), "presentSettings");
    const own = { ...merchant, merchant_bears_cost: 1, brand_color: null };
    expectStrict(SettingsResponse, presentSettings(own), "presentSettings, merchant bears the cost");
    expectStrict(
      LoginResponse,
      {
        merchant: presentMerchant(merchant),
        role: "owner",
        accessToken: "mst_x",
        expiresAt: new Date(0).toISOString(),
      },
      "presentMerchant in a login",
    );
  });

  it("webhooks: an endpoint, enabled and disabled, and an event with its attempts", () => {
    expectStrict(EndpointResponse, presentEndpoint(endpoint), "presentEndpoint");
    const disabled = {
      ...endpoint,
      status: "disabled",
      disabled_reason: "410 Gone",
      disabled_at: endpoint.created_at,
      previous_secret_expires_at: endpoint.created_at,
    };
    expectStrict(EndpointResponse, presentEndpoint(disabled), "presentEndpoint disabled");
    expectStrict(EventResponse, specimenEvent(), "presentEvent");
  });

  it("customers and saved cards: active, deactivated, expired; a charge of one in each outcome", () => {
    const deactivated = {
      ...authorization,
      status: "deactivated",
      active_fingerprint: null,
      deactivated_at: 1,
    };
    const expired = { ...authorization, exp_year: 2020, last_used_at: authorization.created_at };
    for (const row of [authorization, deactivated, expired])
      expectStrict(AuthorizationResponse, presentAuthorization(row), `presentAuthorization ${row.status}`);
    expect(presentAuthorization(expired).status).toBe("expired");
    expect(presentAuthorization(deactivated).status).toBe("deactivated");
    expectStrict(CustomerResponse, presentCustomer(customer, [authorization, expired]), "presentCustomer");
    expectStrict(
      CustomerResponse,
      presentCustomer({ ...customer, name: null, phone: null, metadata: '{"tier":"gold"}' }, []),
      "presentCustomer without cards",
    );
    const charged = { ...paid, merchant_initiated: 1, save_card: null };
    const open = { ...charged, status: "pending" };
    const cases = [
      presentAuthorizationCharge(charged, { status: "success", failure_reason: null }, authorization),
      presentAuthorizationCharge(
        { ...charged, status: "failed" },
        { status: "failed", failure_reason: "card_declined" },
        authorization,
      ),
      presentAuthorizationCharge(open, { status: "awaiting_action", failure_reason: null }, authorization),
      presentAuthorizationCharge(open, { status: "authorizing", failure_reason: null }, authorization),
    ];
    expect(cases.map((c) => c.status)).toEqual(["success", "failed", "requires_action", "pending"]);
    for (const c of cases)
      expectStrict(ChargeAuthorizationResponse, c, `presentAuthorizationCharge ${c.status}`);
  });
});
