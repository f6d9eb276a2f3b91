import { type SchemaDrift, uniqueDrifts } from "../../domain/drift";
import { isoDay } from "../../domain/instants";
import { DELAYED } from "../../domain/provider-names";
import { float32Decimal } from "../../domain/provider-precision";
import { localInstant } from "../../domain/venues";
import { readWire } from "../../domain/wire-schema";
import { ProviderError } from "../errors";
import type { History, HistoryProvider } from "../history";
import { BROWSER_USER_AGENT, getJson } from "../http";
import { observed } from "../isolate";
import { ProviderClient } from "../options";
import { barsOf, columnsMissing, eventsOf, hintOf, sessionDay, slotsOf } from "./chart-read";
import { CHART, type ChartAnswer, type ChartResult } from "./chart-schema";
import { type SearchHit, searchHitsOf } from "./search";

/**
 * The delayed provider (Yahoo Finance) over its public JSON endpoints: chart v8 for history and
 * quotes (no cookie or crumb needed), search v1 to find the symbols of an ISIN. What it reads of a
 * chart answer is in chart-schema, how it reads it in chart-read; the search answer in search.
 */

const HEADERS = { "user-agent": BROWSER_USER_AGENT, accept: "application/json" };

export type Interval = "1d" | "1wk" | "1mo";

/** Intraday bars as the provider gave them: prices in `currency` (which may be a sub-unit such as GBp). */
export interface IntradayHistory {
  symbol: string;
  currency: string | null;
  bars: { start: Date; open: number; high: number; low: number; close: number; volume: number }[];
}

export interface Quote {
  symbol: string;
  name: string | null;
  currency: string | null;
  exchange: string | null;
  price: number;
  previousClose: number | null;
  /** Of the last session's bar, when it is the market day. */
  open: number | null;
  high: number | null;
  low: number | null;
  volume: number | null;
  /** Epoch seconds of the last trade. */
  marketTime: number | null;
}

export class DelayedProviderClient extends ProviderClient implements HistoryProvider {
  readonly name = DELAYED;

  /** Daily bars of `symbol` dated from `from` through `to` (inclusive, YYYY-MM-DD); slots without a close are skipped. */
  async dailyHistory(symbol: string, from: string, to: string): Promise<History> {
    return this.history(symbol, from, to, "1d");
  }

  /** Bars of `symbol` at an interval; weekly and monthly bars are dated by their first session, as the provider dates them. */
  async history(symbol: string, from: string, to: string, interval: Interval): Promise<History> {
    // A day wider at the start: a venue east of UTC stamps its first session the evening before.
    const p1 = Math.floor(Date.parse(`${from}T00:00:00Z`) / 1000) - 86400;
    const p2 = Math.floor(Date.parse(`${to}T00:00:00Z`) / 1000) + 86400;
    const r = await this.chart(
      symbol,
      `period1=${p1}&period2=${p2}&interval=${interval}&events=div%7Csplit%7CcapitalGains&includeAdjustedClose=true`,
    );
    // What was asked for, by the venue's session days.
    const within = <T extends { date: string }>(xs: T[]) => xs.filter((x) => x.date >= from && x.date <= to);
    const events = eventsOf(r);
    return {
      symbol: r.meta.symbol ?? symbol,
      currency: r.meta.currency ?? null,
      exchange: r.meta.exchangeName ?? null,
      bars: within(barsOf(r)),
      events: {
        dividends: within(events.dividends),
        splits: within(events.splits),
        capitalGains: within(events.capitalGains),
      },
    };
  }

  /**
   * A currency pair's daily closes (`EURUSD=X`: dollars per euro) from `from` through `to`. The
   * provider stamps each day's bar at 00:00 London time (23:00 UTC the day before in summer),
   * whatever offset its meta states (the one of the time of asking), and adds the day in progress
   * stamped at its last trade: only bars stamped at a London midnight are days that ended.
   */
  async pairCloses(
    pair: string,
    from: string,
    to: string,
  ): Promise<{ currency: string | null; closes: { date: string; close: number }[] }> {
    const p1 = Math.floor(Date.parse(`${from}T00:00:00Z`) / 1000) - 86400;
    const p2 = Math.floor(Date.parse(`${to}T00:00:00Z`) / 1000) + 86400;
    const r = await this.chart(pair, `period1=${p1}&period2=${p2}&interval=1d`);
    const closes = slotsOf(r).flatMap(({ time, close }) => {
      // The London day a bar stamped at 00:00 or 23:00 UTC may be, then whether it is that day's midnight.
      const date = isoDay(new Date((time + 3600) * 1000));
      const londonMidnight = localInstant(date, "00:00", "Europe/London").getTime() === time * 1000;
      return londonMidnight && date >= from && date <= to ? [{ date, close }] : [];
    });
    return { currency: r.meta.currency ?? null, closes };
  }

  /**
   * Intraday bars of `symbol` at a provider interval (1m, 5m, 15m, 60m) from `start` to `end`,
   * stamped at their first minute, float32 noise removed (float32Decimal); slots without a
   * close are skipped. The
   * provider refuses a start older than the history it keeps for the interval (HTTP 422, its reason
   * passed on in the error).
   */
  async intradayHistory(symbol: string, interval: string, start: Date, end: Date): Promise<IntradayHistory> {
    const p1 = Math.floor(start.getTime() / 1000);
    const p2 = Math.ceil(end.getTime() / 1000);
    const r = await this.chart(symbol, `period1=${p1}&period2=${p2}&interval=${interval}&includePrePost=false`);
    return {
      symbol: r.meta.symbol ?? symbol,
      currency: r.meta.currency ?? null,
      bars: slotsOf(r).map(({ time, date: _, adjClose: __, ...bar }) => ({
        ...bar,
        start: new Date(time * 1000),
      })),
    };
  }

  /**
   * The last price of `symbol` and the close before it, from the chart's meta and its last bars
   * (the chart needs no cookie or crumb, unlike quote v7).
   */
  async quote(symbol: string): Promise<Quote> {
    const r = await this.chart(symbol, "range=5d&interval=1d");
    const bars = barsOf(r);
    const last = bars.at(-1);
    const price = r.meta.regularMarketPrice ?? last?.close;
    if (price === undefined || price === null || !last) {
      // Prices the service could not place (their times gone) are a broken answer, not an unknown symbol.
      if (r.indicators?.quote?.[0]?.close?.length)
        throw new ProviderError(DELAYED, "bad_response", `a chart of ${symbol} whose prices could not be read`);
      throw new ProviderError(DELAYED, "not_found", `no price for ${symbol}`);
    }
    const marketDay = r.meta.regularMarketTime ? sessionDay(r.meta.regularMarketTime, r) : last.date;
    const previous = [...bars].reverse().find((b) => b.date < marketDay);
    const today = last.date === marketDay;
    const exact = (x: number) => float32Decimal(x, hintOf(r));
    const fromMeta = (v: number | null | undefined, bar: number) =>
      v !== null && v !== undefined ? exact(v) : today ? bar : null;
    return {
      symbol: r.meta.symbol ?? symbol,
      name: r.meta.longName ?? r.meta.shortName ?? null,
      currency: r.meta.currency ?? null,
      exchange: r.meta.exchangeName ?? null,
      price: exact(price),
      previousClose: previous?.close ?? null,
      // The meta carries the session's high, low and volume; the open only the session's bar has.
      open: today ? last.open : null,
      high: fromMeta(r.meta.regularMarketDayHigh, last.high),
      low: fromMeta(r.meta.regularMarketDayLow, last.low),
      volume:
        typeof r.meta.regularMarketVolume === "number"
          ? Math.round(r.meta.regularMarketVolume)
          : today
            ? last.volume
            : null,
      marketTime: r.meta.regularMarketTime ?? null,
    };
  }

  private async chart(symbol: string, query: string): Promise<ChartResult> {
    await this.pace(DELAYED);
    return observed(DELAYED, this.watch, () => this.fetchChart(symbol, query));
  }

  private async fetchChart(symbol: string, query: string): Promise<ChartResult> {
    // "=" stays as the provider's own links write it (a currency pair, EURUSD=X): legal in a path.
    const url = `${this.baseUrl}/v8/finance/chart/${encodeURIComponent(symbol).replaceAll("%3D", "=")}?${query}`;
    const { status, body } = await getJson(DELAYED, url, {
      timeoutMs: this.timeoutMs,
      deadline: this.deadline,
      headers: HEADERS,
    });
    const drifts: SchemaDrift[] = [];
    const read = readWire(body, CHART, { provider: DELAYED, document: "chart", path: "" }, drifts) as ChartAnswer;
    this.drifts.report(symbol, uniqueDrifts(drifts));
    const chart = read?.chart;
    if (!chart) throw new ProviderError(DELAYED, "bad_response", `chart answer of unexpected shape (HTTP ${status})`);
    const error = chart.error;
    const found = chart.result?.[0];
    if (error || !found) {
      if (status === 404 || error?.code === "Not Found")
        throw new ProviderError(DELAYED, "not_found", `unknown symbol ${symbol}`);
      throw new ProviderError(DELAYED, "bad_response", error?.description ?? `no chart result (HTTP ${status})`);
    }
    // A result whose meta drifted away still has its bars.
    const r: ChartResult = { ...found, meta: found.meta ?? {} };
    this.drifts.report(symbol, columnsMissing(r));
    return r;
  }

  /** Listings the provider finds for a query (an ISIN or a name). */
  async search(query: string): Promise<SearchHit[]> {
    await this.pace(DELAYED);
    return observed(DELAYED, this.watch, () => this.fetchSearch(query));
  }

  private async fetchSearch(query: string): Promise<SearchHit[]> {
    const url = `${this.baseUrl}/v1/finance/search?q=${encodeURIComponent(query)}&quotesCount=10&newsCount=0&enableFuzzyQuery=false&lang=en-US&region=US`;
    const { status, body } = await getJson(DELAYED, url, {
      timeoutMs: this.timeoutMs,
      deadline: this.deadline,
      headers: HEADERS,
    });
    return searchHitsOf(body, status);
  }
}
