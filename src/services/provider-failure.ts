import { databaseUnavailable } from "../db/errors";
import { NoDataError, ServiceError } from "../domain/errors";
import { ProviderError } from "../providers/errors";

/**
 * A provider failure as the caller should see it: an unknown symbol is "no data" (404 with the
 * reason), anything else means the source is unavailable now (503). Other errors pass through.
 */
export function asServiceError(err: unknown, subject: string): unknown {
  if (!(err instanceof ProviderError)) return err;
  if (err.failure === "not_found") return new NoDataError(`No data found for ${subject}`, err.message);
  return new ServiceError(
    "UPSTREAM_UNAVAILABLE",
    `The ${err.provider.replace("_", " ")} is unavailable for ${subject}: ${err.message}`,
  );
}

/**
 * A failure of a lower layer as the service's error, for the error renderer's backstop: a provider
 * failure that escaped its service (asServiceError), or an unreachable database (503). Anything
 * else is answered unchanged.
 */
export function lowerFailureAsServiceError(err: unknown, subject: string): unknown {
  if (err instanceof ProviderError) return asServiceError(err, subject);
  if (databaseUnavailable(err)) {
    console.warn("database unavailable", subject, String(err));
    return new ServiceError("UPSTREAM_UNAVAILABLE", "The database is unavailable; try again shortly");
  }
  return err;
}
