import { z } from "zod";
import type { Clock, Deadline } from "../../clock";
import type { Bar } from "../../domain/bars";
import type { Dividend, Split } from "../../domain/corporate-actions";
import { type DriftSink, describe, type SchemaDrift, uniqueDrifts } from "../../domain/drift";
import { isoDay } from "../../domain/instants";
import { DELAYED } from "../../domain/provider-names";
import { float32Decimal } from "../../domain/provider-precision";
import { readWire, type WireNode } from "../../domain/wire-schema";
import { ProviderError } from "../errors";
import type { History, HistoryProvider } from "../history";
import { BROWSER_USER_AGENT, getJson } from "../http";
import { observed } from "../isolate";
import { type ClientOptions, withDefaults } from "../options";
import type { Watch } from "../outcomes";
import type { Pace } from "../pace";

/**
 * The delayed provider (Yahoo Finance) over its public JSON endpoints: chart v8 for history and
 * quotes (no cookie or crumb needed), search v1 to find the symbols of an ISIN.
 */

const HEADERS = { "user-agent": BROWSER_USER_AGENT, accept: "application/json" };

/**
 * What the client reads of a chart answer, field by field (domain/wire-schema): a field gone or of
 * another type costs that field (a bar's missing volume, the name), reported as schema_drift; the
 * answer fails only when nothing of it can be read (no result, no bars).
 */
const SERIES = { series: "number" } as const;
export const CHART: WireNode = {
  fields: {
    chart: {
      fields: {
        result: {
          list: {
            fields: {
              meta: {
                fields: {
                  currency: { always: "string" },
                  symbol: { always: "string" },
                  exchangeName: { always: "string" },
                  instrumentType: "string",
                  regularMarketPrice: { always: "number" },
                  chartPreviousClose: "number",
                  regularMarketTime: "number",
                  regularMarketDayHigh: "number",
                  regularMarketDayLow: "number",
                  regularMarketVolume: "number",
                  priceHint: { always: "number" },
                  gmtoffset: "number",
                  longName: "string",
                  shortName: "string",
                },
              },
              timestamp: SERIES,
              // Present only when asked for and non-empty; an event without its date or amount cannot be placed.
              events: {
                fields: {
                  dividends: { entries: { fields: { amount: { required: "number" }, date: { required: "number" } } } },
                  // Funds' capital gains distributions, sent apart when asked (events=capitalGains).
                  capitalGains: {
                    entries: { fields: { amount: { required: "number" }, date: { required: "number" } } },
                  },
                  splits: {
                    entries: {
                      fields: {
                        date: { required: "number" },
                        numerator: { required: "number" },
                        denominator: { required: "number" },
                      },
                    },
                  },
                },
              },
              indicators: {
                fields: {
                  quote: {
                    list: { fields: { open: SERIES, high: SERIES, low: SERIES, close: SERIES, volume: SERIES } },
                  },
                  adjclose: { list: { fields: { adjclose: SERIES } } },
                },
              },
            },
          },
        },
        error: { fields: { code: "string", description: "string" } },
      },
    },
  },
};

type Series = (number | null)[];
/** A chart result as read: every field optional (a drifted one is absent). */
interface ChartResult {
  meta: {
    currency?: string;
    symbol?: string;
    exchangeName?: string;
    regularMarketPrice?: number;
    regularMarketTime?: number;
    regularMarketDayHigh?: number;
    regularMarketDayLow?: number;
    regularMarketVolume?: number;
    priceHint?: number;
    /** The venue's offset from UTC in seconds (its current one): a session's local day from its stamp. */
    gmtoffset?: number;
    longName?: string;
    shortName?: string;
  };
  timestamp?: Series;
  events?: {
    dividends?: Record<string, { amount: number; date: number }>;
    capitalGains?: Record<string, { amount: number; date: number }>;
    splits?: Record<string, { date: number; numerator: number; denominator: number }>;
  };
  indicators?: {
    quote?: { open?: Series; high?: Series; low?: Series; close?: Series; volume?: Series }[];
    adjclose?: { adjclose?: Series }[];
  };
}
interface ChartAnswer {
  chart?: { result?: ChartResult[]; error?: { code?: string; description?: string } };
}

/**
 * A search answer is a list of results of several kinds (the provider's own quotes, and items of
 * other sources with only a name and a link): each is read alone, and one that names no symbol is
 * not a quote.
 */
const searchSchema = z.object({ quotes: z.array(z.unknown()) });
const text = (v: unknown) => (typeof v === "string" ? v : undefined);

export interface SearchHit {
  symbol: string;
  exchange: string | null;
  name: string | null;
  quoteType: string | null;
}

/** The price hint of a chart (decimals a price of it is quoted to), within what a price may carry. */
const hintOf = (r: ChartResult) => Math.min(8, Math.max(0, Math.round(r.meta.priceHint ?? 2)));

/**
 * The venue's session day of a bar or event stamp (the session's open, in UTC): the date at the
 * venue's offset, so a Sydney session opening at 10:00 local (23:00 UTC the day before) is dated by
 * its own day. The offset is today's: a summer-time hour never moves an open across midnight.
 */
const sessionDay = (epoch: number, r: ChartResult) => isoDay(new Date((epoch + (r.meta.gmtoffset ?? 0)) * 1000));

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

/** The chart's parallel arrays as bars, float32 noise removed; slots without a close are skipped. */
const barsOf = (r: ChartResult): Bar[] => slotsOf(r).map(({ time: _, ...bar }) => bar);

/**
 * The chart's bars with the epoch second each is stamped with, at the provider's precision
 * (float32Decimal). The price hint never cuts a digit the float32 holds: a 4:1 split's 52.948 / 4
 * is 13.237, and intraday trades carry more decimals than it (288.345 on a 2-decimal share in a
 * recorded 5m answer); it only reads a large price whose float32 cannot hold its decimals.
 */
function slotsOf(r: ChartResult): (Bar & { time: number })[] {
  const hint = hintOf(r);
  const exact = (x: number) => float32Decimal(x, hint);
  const q = r.indicators?.quote?.[0] ?? {};
  const adj = r.indicators?.adjclose?.[0]?.adjclose;
  const bars: (Bar & { time: number })[] = [];
  const times = r.timestamp ?? [];
  for (let i = 0; i < times.length; i++) {
    const close = q.close?.[i];
    const t = times[i];
    if (close === null || close === undefined || t === null || t === undefined) continue;
    const c = exact(close);
    const pick = (arr: (number | null | undefined)[] | undefined) => {
      const v = arr?.[i];
      return v === null || v === undefined ? c : exact(v);
    };
    const a = adj?.[i];
    // Bars are stamped at the session open in UTC: dated by the venue's day.
    bars.push({
      time: t,
      date: sessionDay(t, r),
      open: pick(q.open),
      high: pick(q.high),
      low: pick(q.low),
      close: c,
      adjClose: a === null || a === undefined ? c : exact(a),
      volume: Math.round(q.volume?.[i] ?? 0),
    });
  }
  return bars;
}

/**
 * The chart's dividends and splits, dated as its bars are (the session the event is stamped with),
 * oldest first. Events of no use (a ratio not above zero, an amount not above zero) are left out.
 */
function eventsOf(r: ChartResult): { dividends: Dividend[]; splits: Split[]; capitalGains: Dividend[] } {
  const exact = (x: number) => float32Decimal(x);
  const byDate = <T extends { date: string }>(xs: T[]) => xs.sort((a, b) => (a.date < b.date ? -1 : 1));
  const amounts = (events: Record<string, { amount: number; date: number }> | undefined) =>
    Object.values(events ?? {})
      .filter((d) => d.amount > 0)
      // Amounts carry more decimals than the price hint (0.205 on a 2-decimal share): float32 noise removed as for prices.
      .map((d) => ({ date: sessionDay(d.date, r), amount: exact(d.amount) }));
  const dividends = amounts(r.events?.dividends);
  const splits = Object.values(r.events?.splits ?? {})
    .filter((x) => x.numerator > 0 && x.denominator > 0)
    .map((x) => ({ date: sessionDay(x.date, r), numerator: x.numerator, denominator: x.denominator }));
  return {
    dividends: byDate(dividends),
    splits: byDate(splits),
    capitalGains: byDate(amounts(r.events?.capitalGains)),
  };
}

const COLUMNS = ["open", "high", "low", "close", "volume"] as const;

/**
 * The price columns a result with timestamps always carries beside them (a range without sessions
 * has neither): one gone is drift, though the reader cannot know it field by field.
 */
function columnsMissing(r: ChartResult): SchemaDrift[] {
  const q = r.indicators?.quote?.[0] ?? {};
  if (!r.timestamp?.length)
    // Prices without their times: the timestamps are what went.
    return q.close?.length
      ? [
          {
            provider: DELAYED,
            document: "chart",
            path: "chart.result[].timestamp",
            expected: "a list beside the prices",
            seen: describe(r.timestamp),
          },
        ]
      : [];
  return COLUMNS.filter((c) => !Array.isArray(q[c])).map((c) => ({
    provider: DELAYED,
    document: "chart",
    path: `chart.result[].indicators.quote[].${c}`,
    expected: "a list beside the timestamps",
    seen: "absent",
  }));
}

export class DelayedProviderClient implements HistoryProvider {
  readonly name = DELAYED;

  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly deadline: Deadline | undefined;
  private readonly clock: Clock;
  private readonly drifts: DriftSink;
  private readonly pace: Pace;

  /** How its calls are watched: for /health, and the rests of its work's policy. */
  private readonly watch: Watch;

  constructor(o: ClientOptions) {
    const c = withDefaults(o);
    this.watch = { clock: c.clock, restPolicy: c.restPolicy };
    this.baseUrl = c.baseUrl;
    this.timeoutMs = c.timeoutMs;
    this.deadline = c.deadline;
    this.clock = c.clock;
    this.drifts = c.drifts;
    this.pace = c.pace;
  }

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
    const url = `${this.baseUrl}/v8/finance/chart/${encodeURIComponent(symbol)}?${query}`;
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
    const parsed = searchSchema.safeParse(body);
    if (!parsed.success)
      throw new ProviderError(DELAYED, "bad_response", `search answer of unexpected shape (HTTP ${status})`);
    return parsed.data.quotes.flatMap((item) => {
      const h = (item ?? {}) as Record<string, unknown>;
      const symbol = text(h.symbol);
      if (!symbol) return [];
      return [
        {
          symbol,
          exchange: text(h.exchange) ?? null,
          name: text(h.longname) ?? text(h.shortname)?.trim() ?? null,
          quoteType: text(h.quoteType) ?? null,
        },
      ];
    });
  }
}
