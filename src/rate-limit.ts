import { keyFingerprint } from "./auth";
import { RateLimitedError } from "./domain/errors";

/** The window of KEY_RATE_LIMITER (`period` in wrangler.toml): what a refused caller is told to wait. */
export const RATE_WINDOW_SECONDS = 60;

/**
 * Counts one request against the key's budget (Workers' rate-limiting binding, keyed by the key's
 * fingerprint) and refuses it with a 429 once the budget of the window is spent. Without the binding
 * (a plain unit test) nothing is counted.
 */
export async function spendRequest(limiter: RateLimit | undefined, key: string): Promise<void> {
  if (!limiter) return;
  const { success } = await limiter.limit({ key: await keyFingerprint(key) });
  if (!success) {
    throw new RateLimitedError(
      `This key has made more requests than its limit for the current minute; retry after ${RATE_WINDOW_SECONDS} seconds`,
      RATE_WINDOW_SECONDS,
    );
  }
}
