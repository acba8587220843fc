import { invalidField } from "@/lib/core/errors";

/**
 * The rules a new password must meet (signup, an invitation accepted, a reset), each failure a
 * `validation_error` on `password` naming its rule: at least 10 characters (`too_short`).
 */
export async function assertPasswordAllowed(password: string, _email: string): Promise<void> {
  if (password.length < 10)
    throw invalidField("password", "too_short", "password must be at least 10 characters");
}
