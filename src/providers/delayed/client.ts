import { z } from "zod";
import type { Bar } from "../../domain/bars";
import { ProviderError, getJson } from "../errors";
import type { History, HistoryProvider } from "../history";

/**
 * The delayed provider (Yahoo Finance) over its public JSON endpoints: chart v8 for history and
 * quotes (no cookie or crumb needed), search v1 to find the symbols of an ISIN.
 */
export const DELAYED = "delayed_provider";

// Browser-like agent: the provider refuses bare clients.
const HEADERS = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36", accept: "application/json" };

const num = z.number().nullable().optional();
const chartSchema = z.object({
  chart: z.object({
    result: z
      .array(
        z.object({
          meta: z.object({
            currency: z.string().nullable().optional(),
            symbol: z.string(),
            exchangeName: z.string().optional(),
            instrumentType: z.string().optional(),
            regularMarketPrice: num,
            chartPreviousClose: num,
            regularMarketTime: num,
            priceHint: z.number().int().optional(),
          }),
          timestamp: z.array(z.number()).optional(),
          indicators: z.object({
            quote: z.array(z.object({ open: z.array(num).optional(), high: z.array(num).optional(), low: z.array(num).optional(), close: z.array(num).optional(), volume: z.array(num).optional() })),
            adjclose: z.array(z.object({ adjclose: z.array(num) })).optional(),
          }),
        }),
      )
      .nullable(),
    error: z.object({ code: z.string(), description: z.string() }).nullable(),
  }),
});

const searchSchema = z.object({
  quotes: z.array(
    z.object({
      symbol: z.string(),
      exchange: z.string().optional(),
      quoteType: z.string().optional(),
      longname: z.string().optional(),
      shortname: z.string().optional(),
      exchDisp: z.string().optional(),
    }),
  ),
});

export interface SearchHit {
  symbol: string;
  exchange: string | null;
  name: string | null;
  quoteType: string | null;
}

/** Removes float32 widening noise (34.099998474121094 -> 34.1): prices to the provider's price hint, adjusted closes to float32's 7 digits. */
const toHint = (x: number, hint: number) => Math.round(x * 10 ** hint) / 10 ** hint;
const to7 = (x: number) => Number(x.toPrecision(7));

const day = (epoch: number, gmtoffsetless: number) => new Date((epoch + gmtoffsetless) * 1000).toISOString().slice(0, 10);

export class DelayedProviderClient implements HistoryProvider {
  readonly name = DELAYED;

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 8000,
  ) {}

  /** Daily bars of `symbol` dated from `from` through `to` (inclusive, YYYY-MM-DD); slots without a close are skipped. */
  async dailyHistory(symbol: string, from: string, to: string): Promise<History> {
    const p1 = Math.floor(Date.parse(`${from}T00:00:00Z`) / 1000);
    const p2 = Math.floor(Date.parse(`${to}T00:00:00Z`) / 1000) + 86400;
    const url = `${this.baseUrl}/v8/finance/chart/${encodeURIComponent(symbol)}?period1=${p1}&period2=${p2}&interval=1d&events=div%7Csplit&includeAdjustedClose=true`;
    const { status, body } = await getJson(DELAYED, url, { timeoutMs: this.timeoutMs, headers: HEADERS });
    const parsed = chartSchema.safeParse(body);
    if (!parsed.success) throw new ProviderError(DELAYED, "bad_response", `chart answer of unexpected shape (HTTP ${status})`);
    const { result, error } = parsed.data.chart;
    if (error || !result?.[0]) {
      if (status === 404 || error?.code === "Not Found") throw new ProviderError(DELAYED, "not_found", `unknown symbol ${symbol}`);
      throw new ProviderError(DELAYED, "bad_response", error?.description ?? `no chart result (HTTP ${status})`);
    }
    const r = result[0];
    const hint = Math.min(6, Math.max(2, r.meta.priceHint ?? 2));
    const q = r.indicators.quote[0] ?? {};
    const adj = r.indicators.adjclose?.[0]?.adjclose;
    const bars: Bar[] = [];
    const times = r.timestamp ?? [];
    for (let i = 0; i < times.length; i++) {
      const close = q.close?.[i];
      const t = times[i];
      if (close === null || close === undefined || t === undefined) continue;
      const c = toHint(close, hint);
      const pick = (arr: (number | null | undefined)[] | undefined) => {
        const v = arr?.[i];
        return v === null || v === undefined ? c : toHint(v, hint);
      };
      const a = adj?.[i];
      // Bars are stamped at the session open in UTC: the UTC date is the session date for every venue we list.
      bars.push({ date: day(t, 0), open: pick(q.open), high: pick(q.high), low: pick(q.low), close: c, adjClose: a === null || a === undefined ? c : to7(a), volume: Math.round(q.volume?.[i] ?? 0) });
    }
    return { symbol: r.meta.symbol, currency: r.meta.currency ?? null, exchange: r.meta.exchangeName ?? null, bars };
  }

  /** Listings the provider finds for a query (an ISIN or a name). */
  async search(query: string): Promise<SearchHit[]> {
    const url = `${this.baseUrl}/v1/finance/search?q=${encodeURIComponent(query)}&quotesCount=10&newsCount=0&enableFuzzyQuery=false&lang=en-US&region=US`;
    const { status, body } = await getJson(DELAYED, url, { timeoutMs: this.timeoutMs, headers: HEADERS });
    const parsed = searchSchema.safeParse(body);
    if (!parsed.success) throw new ProviderError(DELAYED, "bad_response", `search answer of unexpected shape (HTTP ${status})`);
    return parsed.data.quotes.map((h) => ({ symbol: h.symbol, exchange: h.exchange ?? null, name: h.longname ?? h.shortname?.trim() ?? null, quoteType: h.quoteType ?? null }));
  }
}
