import type { RateVerdict } from "../domain/rate-window";
import type { Bindings } from "../env";

/** The KeyMeter objects as the middleware and the socket route see them. */
export interface KeyMeters {
  /** Spends one request of `limit` from the meter `name` (a key's fingerprint, or `ip:` and an address). */
  spend(name: string, limit: number, nowMs: number): Promise<RateVerdict>;
}

/** The meters over the Worker's KEY_METER binding; null where it is absent (plain unit tests). */
export function keyMeters(env: Bindings): KeyMeters | null {
  const ns = env.KEY_METER;
  if (!ns) return null;
  return {
    spend: async (name, limit, nowMs) => {
      // Plain data out of the RPC result.
      const v = await ns.get(ns.idFromName(name)).spend(limit, nowMs);
      return { allowed: v.allowed, limit: v.limit, remaining: v.remaining, resetSeconds: v.resetSeconds };
    },
  };
}
