import { AppError } from "@/lib/core/errors";
import type { Mode } from "@/lib/db/schema";
import { env } from "@/lib/env";

/** Simulate and `/sandbox/*` work only for test transactions on a staging deployment (docs/api.md). */
export function assertTestMode(mode: Mode): void {
  if (mode !== "test" || env().PAYMENTS_ENV === "production") {
    throw new AppError(
      "test_mode_only",
      "Sandbox actions are available in test mode only, never on live payments.",
    );
  }
}
