import type { Selectable } from "kysely";
import type { ChargeAttemptsTable } from "@/lib/db/schema";
import { cardDetails } from "./waiting-card-attempt";

/**
 * A card attempt as the card endpoints answer it, from what is recorded: paid, waiting for the customer (an
 * OTP or another step), still at the network (`processing`), or failed with its reason.
 */
export function presentCardAttempt(reference: string, attempt: Selectable<ChargeAttemptsTable>) {
  const details = cardDetails(attempt);
  const base = {
    reference,
    channel: "card",
    card: { brand: details.summary.brand, last4: details.summary.last4 },
  };
  switch (attempt.status) {
    case "success":
      return { ...base, status: "success" };
    case "awaiting_otp":
      return { ...base, status: "awaiting_otp", message: details.message ?? "Enter the one-time password." };
    case "awaiting_action":
      return {
        ...base,
        status: "awaiting_action",
        action: {
          step: details.step ?? "otp",
          message: details.message ?? "",
          ...(details.url && { url: details.url }),
        },
      };
    case "authorizing":
      return { ...base, status: "processing", message: "The card payment is being processed." };
    default:
      return {
        ...base,
        status: "failed",
        reason: attempt.failure_reason ?? attempt.status,
        message:
          attempt.status === "refunded"
            ? "This payment was settled another way; the card charge is refunded."
            : "The card payment did not complete.",
      };
  }
}
