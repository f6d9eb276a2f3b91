/**
 * Whether an error means the database cannot be reached or lost the connection (rather than a
 * query it refused): the caller gets a 503 and may retry. Drizzle wraps driver errors, so the
 * cause chain is walked.
 */
export function databaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    // SQLSTATE classes 08 (connection exception), 53 (insufficient resources), 57P (operator intervention).
    if (typeof code === "string" && /^(08|53|57P)/.test(code)) return true;
    if (UNREACHABLE.test(e.message)) return true;
  }
  return false;
}

const UNREACHABLE =
  /connection terminated|network connection lost|connection refused|ECONNREFUSED|ECONNRESET|timeout exceeded when trying to connect|connect ETIMEDOUT|WebSocket (was closed|connection)|socket hang up|Connection ended/i;
