/** What a declined card means to the customer, by the API's `reason`. */
const DECLINE: Record<string, string> = {
  card_declined: "Your bank declined this card.",
  insufficient_funds: "This card does not have enough funds.",
  invalid_otp: "The one-time password was not correct.",
  otp_expired: "The one-time password has expired.",
  processor_error: "The card network did not answer.",
};

/** A problem shown above the card form: a decline, or a charge that did not complete. */
export type CardProblem = { title: string; message: string; at?: number };

export function declineOf(result: { reason?: string; message?: string }): CardProblem {
  return {
    title: "Payment declined",
    message: `${(result.reason && DECLINE[result.reason]) || result.message || "The card was declined."} Nothing was charged.`,
  };
}
