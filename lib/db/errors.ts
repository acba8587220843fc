/** Whether a database error is a unique-constraint violation, on SQLite or PostgreSQL. */
export function isUniqueViolation(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const code = (err as { code?: unknown }).code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/** SQLSTATE classes and codes of a PostgreSQL that is gone, going or not yet back. */
const PG_UNAVAILABLE = /^(08|57P0[1-3]|53300)/;
/** Node socket errors of a connection that failed or broke. */
const SOCKET_ERRORS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);
/** What node-postgres says, without a code, when a connection ends under it or cannot be had in time. */
const PG_CLIENT_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|connection is not queryable/i;

/**
 * Whether an error means the database cannot be reached or is shutting down or restarting (the request
 * may succeed if tried again shortly), rather than a fault in the request or the code. Such a request is
 * answered 503 `service_unavailable`, never a 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === "string" && (PG_UNAVAILABLE.test(code) || SOCKET_ERRORS.has(code))) return true;
  // SQLite: another process kept the database locked past busy_timeout.
  if (code === "SQLITE_BUSY") return true;
  if (typeof message === "string" && PG_CLIENT_MESSAGES.test(message)) return true;
  const cause = (err as { cause?: unknown }).cause;
  return cause !== undefined && cause !== err && isDatabaseUnavailable(cause);
}
