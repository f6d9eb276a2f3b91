import { databaseUnavailable } from "../../db/errors";
import { ServiceError } from "../../domain/errors";
import { ProviderError } from "../../providers/errors";

/**
 * A failure as it is stored where a read-only key reads it (a refresh's items, an import's lines,
 * an abandoned run): a provider's or the service's own message, else only its class; the detail
 * (a database error carries its SQL and values) goes to the logs, never to the store.
 * @example storedReason(new Error("Failed query: insert into ...")) // "an internal error (details in the service's logs)"
 */
export function storedReason(err: unknown): string {
  if (err instanceof ProviderError || err instanceof ServiceError) return err.message;
  if (databaseUnavailable(err)) return "the database could not be reached";
  return "an internal error (details in the service's logs)";
}
