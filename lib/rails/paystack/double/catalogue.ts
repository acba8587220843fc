/**
 * What the Paystack double does with each card, bank account and OTP (docs/rails.md "The double"). The card
 * numbers pass the Luhn check the checkout applies; they are the double's own, not Paystack's test cards
 * (rails:smoke uses those, against Paystack's real test mode).
 */
export type CardStep = "send_pin" | "send_otp" | "send_phone" | "send_birthday" | "send_address" | "open_url";

export type CardScenario =
  /** The steps Paystack asks for, in order, then the outcome. */
  | { kind: "flow"; steps: CardStep[]; outcome: "success" | { failed: string } }
  /** `pending` first; decided (success) on the second look (GET /charge/{reference}). */
  | { kind: "pending" }
  /** POST /charge answers 500 and creates nothing. */
  | { kind: "server_error" }
  /** The charge succeeds at once; the answer is held `holdMs` (longer than the connector waits: a lost answer). */
  | { kind: "slow"; holdMs: number }
  /** The charge succeeds at once; the connection is cut before any answer. */
  | { kind: "dropped" };

export const DOUBLE_CARDS = {
  success: "4084084084084081",
  pinThenOtp: "5060666666666666666",
  otp: "4000000000003220",
  declined: "4000000000000002",
  insufficient: "4000000000009995",
  threeDSecure: "4000000000003063",
  phone: "4000000000000077",
  birthday: "4000000000000093",
  address: "4000000000000101",
  pending: "4000000000000119",
  serverError: "4000000000000127",
  lostAnswer: "4000000000000135",
  heldAnswer: "4000000000000143",
  dropped: "4000000000000150",
  /** A second card (Mastercard) that succeeds. */
  second: "5555555555554444",
  /** Succeeds and saves; every charge of its authorization is declined. */
  savesThenDeclines: "4000000000000341",
  /** Succeeds and saves; every charge of its authorization asks for the OTP (send_otp). */
  savesThenOtp: "4000002760003184",
  /** Succeeds and saves; every charge of its authorization asks for the bank's page (open_url). */
  savesThen3ds: "4000002500003155",
  /** Succeeds and saves; every charge of its authorization is pending at first, then succeeds. */
  savesThenPending: "4000000000000168",
  /** Succeeds, but Paystack marks its authorization not reusable: it cannot be saved. */
  notReusable: "4000000000000176",
} as const;

/** How the double answers POST /transaction/charge_authorization of a card's authorization. */
export type SavedScenario = "success" | "declined" | "otp" | "open_url" | "pending" | "not_reusable";

export function savedScenario(number: string): SavedScenario {
  switch (number) {
    case DOUBLE_CARDS.savesThenDeclines:
      return "declined";
    case DOUBLE_CARDS.savesThenOtp:
      return "otp";
    case DOUBLE_CARDS.savesThen3ds:
      return "open_url";
    case DOUBLE_CARDS.savesThenPending:
      return "pending";
    case DOUBLE_CARDS.notReusable:
      return "not_reusable";
    default:
      return "success";
  }
}

export const DOUBLE_PIN = "1234";
export const DOUBLE_OTP = "123456";
/** A wrong OTP leaves the charge at send_otp; the third wrong one fails it ("Token Validation Failed"). */
export const DOUBLE_OTP_TRIES = 3;

export function cardScenario(number: string, holdMs: { lost: number; held: number }): CardScenario {
  switch (number) {
    case DOUBLE_CARDS.success:
    case DOUBLE_CARDS.second:
    case DOUBLE_CARDS.savesThenDeclines:
    case DOUBLE_CARDS.savesThenOtp:
    case DOUBLE_CARDS.savesThen3ds:
    case DOUBLE_CARDS.savesThenPending:
    case DOUBLE_CARDS.notReusable:
      return { kind: "flow", steps: [], outcome: "success" };
    case DOUBLE_CARDS.pinThenOtp:
      return { kind: "flow", steps: ["send_pin", "send_otp"], outcome: "success" };
    case DOUBLE_CARDS.otp:
      return { kind: "flow", steps: ["send_otp"], outcome: "success" };
    case DOUBLE_CARDS.declined:
      return { kind: "flow", steps: [], outcome: { failed: "Declined" } };
    case DOUBLE_CARDS.insufficient:
      return { kind: "flow", steps: [], outcome: { failed: "Insufficient Funds" } };
    case DOUBLE_CARDS.threeDSecure:
      return { kind: "flow", steps: ["open_url"], outcome: "success" };
    case DOUBLE_CARDS.phone:
      return { kind: "flow", steps: ["send_phone", "send_otp"], outcome: "success" };
    case DOUBLE_CARDS.birthday:
      return { kind: "flow", steps: ["send_birthday"], outcome: "success" };
    case DOUBLE_CARDS.address:
      return { kind: "flow", steps: ["send_address"], outcome: "success" };
    case DOUBLE_CARDS.pending:
      return { kind: "pending" };
    case DOUBLE_CARDS.serverError:
      return { kind: "server_error" };
    case DOUBLE_CARDS.lostAnswer:
      return { kind: "slow", holdMs: holdMs.lost };
    case DOUBLE_CARDS.heldAnswer:
      return { kind: "slow", holdMs: holdMs.held };
    case DOUBLE_CARDS.dropped:
      return { kind: "dropped" };
    default:
      return { kind: "flow", steps: [], outcome: { failed: "Declined" } };
  }
}

/** Bank accounts of Paystack's bank charge, by account number. */
export const DOUBLE_ACCOUNTS = {
  /** `pay_offline`: approve in the bank's app (the control API answers for the customer). */
  approveInApp: "0000000000",
  otp: "0000000001",
  birthdayThenOtp: "0000000002",
  internetBanking: "0000000003",
  invalid: "0000000004",
  phoneThenOtp: "0000000005",
  pin: "0000000006",
} as const;

export function bankSteps(account: string): { steps: CardStep[] | "offline"; failed?: string } {
  switch (account) {
    case DOUBLE_ACCOUNTS.otp:
      return { steps: ["send_otp"] };
    case DOUBLE_ACCOUNTS.birthdayThenOtp:
      return { steps: ["send_birthday", "send_otp"] };
    case DOUBLE_ACCOUNTS.internetBanking:
      return { steps: ["open_url"] };
    case DOUBLE_ACCOUNTS.phoneThenOtp:
      return { steps: ["send_phone", "send_otp"] };
    case DOUBLE_ACCOUNTS.pin:
      return { steps: ["send_pin"] };
    case DOUBLE_ACCOUNTS.invalid:
      return { steps: [], failed: "Account is invalid" };
    default:
      return { steps: "offline" };
  }
}
