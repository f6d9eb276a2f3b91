import type { Bindings } from "../../env";
import { sleep } from "../../platform/sleep";
import type { Pace } from "../../providers/pace";

/**
 * Each request to a provider waits for its slot from that provider's ProviderPacer: one object per
 * provider hands out slots `60,000 / REFRESH_REQUESTS_PER_MINUTE` ms apart to every consumer in
 * every isolate, so the total rate of the refresh and the import per provider never exceeds the
 * setting. `counted` is told of each request.
 */
export function pacedBy(env: Bindings, perMinute: number, counted: () => void): Pace {
  const intervalMs = 60_000 / perMinute;
  return async (provider) => {
    counted();
    const pacers = env.PROVIDER_PACER;
    if (!pacers) return;
    const wait = await pacers.get(pacers.idFromName(provider)).take(intervalMs);
    if (wait > 0) await sleep(wait);
  };
}
