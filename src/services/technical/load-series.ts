import type { ListingRow } from "../../db/repositories/catalogue";
import { readDailyBars } from "../../db/repositories/prices";
import { readIntradayBars } from "../../db/repositories/prices-intraday";
import { resample } from "../../domain/bars";
import { ServiceError } from "../../domain/errors";
import { firstShown, HISTORY_BARS, type WindowedSeries } from "../../domain/indicators/history";
import type { Resolution } from "../../domain/indicators/request";
import { type PriceSeries, seriesOfBars, seriesOfColumns } from "../../domain/indicators/series";
import { isoInstant } from "../../domain/instants";
import type { Context } from "../../platform/context";
import { resolveListing } from "../shared/resolve-listing";

/** Which bars are answered: the resolution, an optional date window and how many of its newest (default from the route). */
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

/**
 * The ticker's listing's history at a resolution up to the window's end (the newest HISTORY_BARS
 * bars; weekly and monthly aggregated from daily bars as /eod does) and where the answered bars
 * start: the last `limit` of those from `fromDate` on.
 */
export async function readSeries(ctx: Context, listing: ListingRow, q: SeriesQuery): Promise<WindowedSeries> {
  const db = ctx.db;
  const to = q.toDate ?? null;
  let history: PriceSeries;
  if (q.resolution === "1min") {
    const candles = await readIntradayBars(db, listing.id, { from: null, to, limit: HISTORY_BARS });
    history = seriesOfColumns({
      times: candles.map((c) => isoInstant(c.minute)),
      open: candles.map((c) => c.open),
      high: candles.map((c) => c.high),
      low: candles.map((c) => c.low),
      close: candles.map((c) => c.close),
      volume: candles.map((c) => c.volume),
    });
  } else {
    const daily = await readDailyBars(db, listing.id, { to, lastBars: HISTORY_BARS });
    history = seriesOfBars(
      q.resolution === "1D" ? daily : resample(daily, q.resolution === "1W" ? "weekly" : "monthly"),
    );
  }
  const period = q.resolution === "1W" ? "weekly" : q.resolution === "1M" ? "monthly" : undefined;
  return { history, first: firstShown(history.times, q.fromDate, q.limit, period) };
}

/**
 * The listing (chosen as /eod chooses it), its history and the answered bars; 404 when the ticker
 * has no bars in the window at that resolution. Indicators never ingest: prices come from GET /eod
 * or POST /historical/ingest.
 */
export async function loadSeries({
  ctx,
  input,
}: {
  ctx: Context;
  input: SeriesQuery;
}): Promise<{ listing: ListingRow; series: WindowedSeries }> {
  const listing = await resolveListing({ ctx, input: { ticker: input.ticker } });
  const series = await readSeries(ctx, listing, input);
  if (series.first >= series.history.close.length) {
    const how =
      input.resolution === "1min"
        ? "1-minute candles are saved while the ticker is streamed"
        : `ingest them through GET /eod/${input.ticker} or POST /historical/ingest`;
    const where =
      series.history.close.length > 0 ? ` between ${input.fromDate ?? "the first"} and ${input.toDate ?? "today"}` : "";
    throw new ServiceError("NOT_FOUND", `No ${input.resolution} prices stored for ${input.ticker}${where}: ${how}`);
  }
  return { listing, series };
}
