import { RateLimitedError } from "../domain/errors";

/** The window of KEY_RATE_LIMITER (`period` in wrangler.toml): what a refused caller is told to wait. */
export const RATE_WINDOW_SECONDS = 60;

/**
 * Counts one request against the key's budget (Workers' rate-limiting binding, keyed by the key's
 * fingerprint, see `identifyKey`) and refuses it with a 429 once the budget of the window is spent.
 * Without the binding (a plain unit test) nothing is counted; a limiter that fails lets the request
 * through (logged): abuse protection must not turn into an outage.
 * @example await spendRequest(c.env.KEY_RATE_LIMITER, identity.fingerprint) // throws RateLimitedError past the limit
 */
export async function spendRequest(limiter: RateLimit | undefined, fingerprint: string): Promise<void> {
  if (!limiter) return;
  let success = true;
  try {
    ({ success } = await limiter.limit({ key: fingerprint }));
  } catch (err) {
    console.warn("rate limiter unavailable; request let through", String(err));
  }
  if (!success) {
    throw new RateLimitedError(
      `This key has made more requests than its limit for the current minute; retry after ${RATE_WINDOW_SECONDS} seconds`,
      RATE_WINDOW_SECONDS,
    );
  }
}
