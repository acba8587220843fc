import type { Mode } from "@/lib/db/schema";
import { AppError } from "@/lib/http/errors";
import { sandboxRails } from "./sandbox";
import type { Rails } from "./types";

/**
 * The rails for a mode: the sandbox in test mode. No live rail is configured in this codebase yet, so a
 * live charge answers 503 instead of pretending (docs/api.md "Channels and the sandbox").
 */
export function railsFor(mode: Mode): Rails {
  if (mode === "test") return sandboxRails;
  throw new AppError("service_unavailable", "Live payment rails are not configured on this deployment.");
}
