import { RateLimitedError } from "../domain/errors";
import type { RateVerdict } from "../domain/rate-window";
import type { KeyMeters } from "./key-meters";

/**
 * Counts one request against a budget (the KeyMeter object `name`): the verdict, for the answer's
 * RateLimit headers; `refusedWith` turns a verdict past the limit into the 429. Without meters (a
 * plain unit test) nothing is counted; a meter that fails lets the request through (logged, no
 * headers): abuse protection must not turn into an outage.
 * @example await spendRequest(deps.meters, key.fingerprint, 1000, now) // { allowed: true, remaining: 999, ... }
 */
export async function spendRequest(
  meters: KeyMeters | null,
  name: string,
  limit: number,
  nowMs: number,
): Promise<RateVerdict | null> {
  if (!meters) return null;
  try {
    return await meters.spend(name, limit, nowMs);
  } catch (err) {
    console.warn("key meter unavailable; request let through", String(err));
    return null;
  }
}

/** The 429 of a spent budget; `what`: what was done too often. */
export function refusedWith(v: RateVerdict, what = "This key has made more requests"): RateLimitedError {
  return new RateLimitedError(
    `${what} than its limit of ${v.limit} a minute; retry after ${v.resetSeconds} seconds`,
    v.resetSeconds,
  );
}

/**
 * The answer's rate-limit headers (the IETF draft's RateLimit-Limit/-Remaining/-Reset, and the
 * policy: the limit a window of 60 seconds).
 */
export function rateLimitHeaders(v: RateVerdict): Record<string, string> {
  return {
    "RateLimit-Limit": String(v.limit),
    "RateLimit-Remaining": String(v.remaining),
    "RateLimit-Reset": String(v.resetSeconds),
    "RateLimit-Policy": `${v.limit};w=60`,
  };
}
