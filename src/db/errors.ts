/**
 * Whether an error means the database cannot be reached, lost the connection or rolled a
 * transaction back (rather than a query it refused): the caller gets a 503 and may retry. Drizzle wraps driver errors, and the
 * driver wraps the runtime's socket ErrorEvent, so the chain (`cause`, `error`) is walked.
 */
export function databaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; typeof e === "object" && e !== null && depth < 6; depth++) {
    const { code, message, cause, error } = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      error?: unknown;
    };
    // SQLSTATE classes 08 (connection exception), 53 (insufficient resources), 57P (operator
    // intervention), and class 40 (a transaction rolled back: a deadlock or a serialization
    // failure, which a retry resolves).
    if (typeof code === "string" && /^(08|53|57P|40)/.test(code)) return true;
    if (typeof message === "string" && UNREACHABLE.test(message)) return true;
    e = cause ?? error;
  }
  return false;
}

// The HTTP driver: "Error connecting to database: ..." when the request fails, "Server error (HTTP
// status 5xx)" when Neon's endpoint cannot reach the compute.
const UNREACHABLE =
  /Error connecting to database|Server error \(HTTP status 5\d\d\)|connection terminated|network connection lost|connection refused|ECONNREFUSED|ECONNRESET|timeout exceeded when trying to connect|connect ETIMEDOUT|WebSocket (was closed|connection)|socket hang up|Connection ended/i;

/** Whether an error is Postgres refusing a duplicate of a unique index (SQLSTATE 23505), through Drizzle's and the driver's wrapping. */
export function uniqueViolation(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; typeof e === "object" && e !== null && depth < 6; depth++) {
    const { code, cause, error } = e as { code?: unknown; cause?: unknown; error?: unknown };
    if (code === "23505") return true;
    e = cause ?? error;
  }
  return false;
}
