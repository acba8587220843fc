import { AppError } from "./errors";
import type { SessionPrincipal } from "./principal";
import { can, PERMISSIONS, type Permission } from "./roles";

/**
 * The one check of a member's role (lib/core/roles.ts): 403 `forbidden` naming the permission when the
 * session's role lacks it. A session route without a permission is refused too: every session endpoint
 * declares one (lib/core/roles.test.ts checks the registry), so a missing one is a bug that must not open a door.
 */
export function assertPermitted(principal: SessionPrincipal, permission: Permission | undefined): void {
  if (!permission) {
    throw new AppError("forbidden", "This route declares no permission; nobody may call it.");
  }
  if (principal.twoFactorMissing && permission !== "account.self") {
    throw new AppError(
      "forbidden",
      "This merchant requires two-factor sign-in of every member: set it up first (POST /v1/merchants/auth/2fa/setup, then /enable; in the console, Your account).",
    );
  }
  if (!can(principal.role, permission)) {
    throw new AppError(
      "forbidden",
      `Your role (${principal.role}) does not allow this: it needs the permission ${permission} (${PERMISSIONS[permission]}).`,
    );
  }
}
