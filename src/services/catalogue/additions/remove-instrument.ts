import { findAssetByIsin } from "../../../db/repositories/catalogue";
import { removeInstrument as removeStored } from "../../../db/repositories/catalogue-additions";
import { NotFoundError } from "../../../domain/errors";
import { cacheKeys } from "../../../platform/cache";
import type { Context } from "../../../platform/context";
import { checkedIsin } from "./add-instrument";

export interface Removal {
  isin: string;
  removed_at: string;
  /** Listings taken out of every route, the refresh, the screener and the streams (their prices stay). */
  deactivated_listings: string[];
  /** Tickers whose stored realtime subscription ended. */
  streams_ended: string[];
}

/**
 * DELETE /assets/{isin}: takes the instrument out of the catalogue (see `removeInstrument` in the
 * repository). Repeating it changes nothing and answers the first removal's date. Its cached EOD
 * answers go with it; a stream that will not stop is logged and ends at the next restore anyway
 * (the stored subscription is inactive).
 */
export async function removeAsset(ctx: Context, rawIsin: string): Promise<Removal> {
  const isin = checkedIsin(rawIsin);
  const found = await findAssetByIsin(ctx.db, isin);
  if (!found) throw new NotFoundError("Instrument with ISIN", isin);
  const removed = await removeStored(ctx.db, isin, ctx.clock.now());
  if (!removed) throw new NotFoundError("Instrument with ISIN", isin);
  const tickers = [...new Set(found.listings.map((l) => l.ticker))];
  for (const ticker of removed.streamsEnded) {
    await ctx.streams?.stop(ticker).catch((err: unknown) => console.warn("stream not stopped", ticker, String(err)));
  }
  await Promise.all(tickers.map((t) => ctx.cache.deletePattern(cacheKeys.eodOfTicker(t)).catch(() => 0)));
  return {
    isin,
    removed_at: removed.removedAt.toISOString(),
    deactivated_listings: tickers,
    streams_ended: removed.streamsEnded,
  };
}
