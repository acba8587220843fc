import { deploymentMode, env } from "@/lib/env";
import { AppError } from "./errors";
import type { Mode } from "./principal";

/**
 * Refuse (400 `validation_error` naming `mode`) a merchant action on the mode this deployment does not serve:
 * staging manages test-mode keys, webhooks and events only, production live ones only, as it accepts only
 * those keys. A staging session could otherwise roll the live key or point live webhooks elsewhere.
 */
export function assertServedMode(mode: Mode): void {
  const served = deploymentMode();
  if (mode === served) return;
  const here = env().PAYMENTS_ENV;
  const there = here === "production" ? "staging" : "production";
  throw new AppError(
    "validation_error",
    `mode must be "${served}" on the ${here} deployment; ${mode} keys, webhooks and events are managed on the ${there} deployment.`,
  );
}
