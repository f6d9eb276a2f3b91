import type { InstrumentBars, ScreenBarsQuery } from "../../db/repositories/screen-bars";
import { type Bar, dailyBarsFor, newestPeriods } from "../../domain/bars";
import { lastValueBars, minBars } from "../../domain/indicators/catalogue";
import { HISTORY_BARS } from "../../domain/indicators/history";
import type { Resolution } from "../../domain/indicators/request";
import { seriesOfBars } from "../../domain/indicators/series";
import type { IndicatorSpec, Params, PriceField } from "../../domain/indicators/spec";

export type DailyResolution = Exclude<Resolution, "1min">;

/** What a screen of one indicator reads of each instrument: its newest daily bars and the fields. */
export interface ScreenReadPlan {
  /** Bars (of the resolution) the last value is computed over. */
  need: number;
  period: "weekly" | "monthly" | null;
  read: ScreenBarsQuery;
}

/**
 * Only the bars an instrument's last value depends on: a windowed indicator's own window; for the
 * others the stored history GET /technical/{ticker} computes over; weekly and monthly bars
 * aggregated from whole periods of daily bars. The dates and closes too: each match says the bar it
 * is computed to.
 */
export function screenReadPlan(spec: IndicatorSpec, params: Params, resolution: DailyResolution): ScreenReadPlan {
  const need = lastValueBars(spec, params, HISTORY_BARS);
  const period = resolution === "1D" ? null : resolution === "1W" ? "weekly" : "monthly";
  const bars = period ? dailyBarsFor(need, period) : need;
  return { need, period, read: { bars, fields: [...new Set(["date", "close", ...spec.inputs] as const)] } };
}

export interface LastValue {
  row: InstrumentBars;
  value: number;
  last: Bar;
}

/**
 * Each instrument's last value over the bars read (the ticker route's last value, bit for bit);
 * an instrument without enough bars is skipped, one whose value is not a number left out.
 */
export function lastValues(
  rows: readonly InstrumentBars[],
  spec: IndicatorSpec,
  params: Params,
  plan: ScreenReadPlan,
): { values: LastValue[]; skipped: number } {
  const values: LastValue[] = [];
  let skipped = 0;
  for (const row of rows) {
    const daily = barsOfColumns(row.columns);
    const bars = plan.period ? newestPeriods(daily, plan.period, plan.need, daily.length === plan.read.bars) : daily;
    if (bars.length < minBars(spec, params)) {
      skipped += 1;
      continue;
    }
    const value = spec.compute(seriesOfBars(bars), params)[0]?.[bars.length - 1];
    const last = daily.at(-1);
    if (value !== undefined && !Number.isNaN(value) && last) values.push({ row, value, last });
  }
  return { values, skipped };
}

/** Bars from the read's columns; the fields an indicator does not read are the close (volume 0), unread. */
function barsOfColumns(c: InstrumentBars["columns"]): Bar[] {
  const close = (c.close ?? []) as number[];
  const at = (f: PriceField, i: number) =>
    (c[f]?.[i] as number | undefined) ?? (f === "volume" ? 0 : (close[i] as number));
  return close.map((value, i) => ({
    date: (c.date?.[i] as string | undefined) ?? "",
    open: at("open", i),
    high: at("high", i),
    low: at("low", i),
    close: value,
    adjClose: value,
    volume: at("volume", i),
  }));
}
