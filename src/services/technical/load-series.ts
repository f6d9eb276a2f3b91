import type { ListingRow } from "../../db/repositories/catalogue";
import { readDailyBars, readIntradayBars } from "../../db/repositories/prices";
import type { Deps } from "../../deps";
import { resample } from "../../domain/bars";
import { ServiceError } from "../../domain/errors";
import type { Resolution } from "../../domain/indicators/request";
import { type PriceSeries, seriesOfBars, seriesOfColumns } from "../../domain/indicators/series";
import { isoInstant } from "../../domain/instants";
import { resolveListing } from "../shared/resolve-listing";

/** Which bars: the resolution, an optional date window and how many of the newest (default from the route). */
export interface SeriesWindow {
  resolution: Resolution;
  fromDate?: string;
  toDate?: string;
  limit?: number;
}

export interface SeriesQuery extends SeriesWindow {
  ticker: string;
  limit: number;
}

/** The `limit` newest bars of the ticker's listing at a resolution (weekly and monthly aggregated from daily bars as /eod does). */
export async function readSeries(ctx: Deps, listing: ListingRow, q: SeriesQuery): Promise<PriceSeries> {
  const db = ctx.db.db;
  const window = { from: q.fromDate ?? null, to: q.toDate ?? null };
  if (q.resolution === "1min") {
    const candles = await readIntradayBars(db, listing.id, { ...window, limit: q.limit });
    return seriesOfColumns({
      times: candles.map((c) => isoInstant(c.minute)),
      open: candles.map((c) => c.open),
      high: candles.map((c) => c.high),
      low: candles.map((c) => c.low),
      close: candles.map((c) => c.close),
      volume: candles.map((c) => c.volume),
    });
  }
  if (q.resolution === "1D") return seriesOfBars(await readDailyBars(db, listing.id, { ...window, lastBars: q.limit }));
  const bars = resample(await readDailyBars(db, listing.id, window), q.resolution === "1W" ? "weekly" : "monthly");
  return seriesOfBars(bars.slice(-q.limit));
}

/**
 * The listing (chosen as /eod chooses it) and its bars; 404 when the ticker has nothing stored at
 * that resolution. Indicators never ingest: prices come from GET /eod or POST /historical/ingest.
 */
export async function loadSeries({
  ctx,
  input,
}: {
  ctx: Deps;
  input: SeriesQuery;
}): Promise<{ listing: ListingRow; series: PriceSeries }> {
  const listing = await resolveListing({ ctx, input: { ticker: input.ticker } });
  const series = await readSeries(ctx, listing, input);
  if (series.close.length === 0) {
    const how =
      input.resolution === "1min"
        ? "1-minute candles are saved while the ticker is streamed"
        : `ingest them through GET /eod/${input.ticker} or POST /historical/ingest`;
    throw new ServiceError("NOT_FOUND", `No ${input.resolution} prices stored for ${input.ticker}: ${how}`);
  }
  return { listing, series };
}
