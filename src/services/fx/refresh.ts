import { latestRateDay } from "../../db/repositories/fx";
import { ECB_CURRENCIES } from "../../domain/fx/currencies";
import { latestPublicationDay } from "../../domain/fx/publication";
import { addDays } from "../../domain/instants";
import type { Context } from "../../platform/context";
import { storeRates } from "./store-rates";

/**
 * The daily refresh: every currency's days of the last week stored (the 90-day file when a
 * currency has nothing recent, else what follows its stored days). Answers the newest day stored
 * after it, and the provider's failure if it failed.
 */
export async function refreshRates(ctx: Context): Promise<{ latest: string | null; failure?: string }> {
  const latest = latestPublicationDay(ctx.clock.now());
  const stored = await storeRates(ctx, ECB_CURRENCIES, addDays(latest, -7), latest);
  return { latest: await latestRateDay(ctx.db), ...(stored.failure ? { failure: stored.failure } : {}) };
}
