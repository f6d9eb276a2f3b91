import { z } from "@hono/zod-openapi";
import { decimalOrNull } from "../../domain/numbers";
import { documentRows, flatRow, flatRows, growthColumn, type Row } from "../../domain/workspace/tables";
import { compareDcf, getDcf } from "../../services/dcf/get-dcf";
import { dcfSensitivity } from "../../services/dcf/sensitivity";
import { getEtfDetails } from "../../services/etf/get-etf-details";
import { type ExchangeBody, getExchange } from "../../services/exchanges/exchanges";
import { getDeepFundamentals } from "../../services/fundamentals/get-deep";
import { getRenderedFundamentals } from "../../services/fundamentals/get-rendered";
import { getIndexConstituents } from "../../services/indices/get-constituents";
import { getInsiderTransactions } from "../../services/insider/get-insider";
import { getNewsFeed } from "../../services/news/feed";
import { getNews } from "../../services/news/get-news";
import { getQuotes } from "../../services/realtime/get-quotes";
import { screen } from "../../services/technical/screen";
import { screenByConditions } from "../../services/technical/screen-conditions";
import { withEnrichment } from "../../services/workspace/first-view";
import { DcfTicker, ENRICHED_FIRST, forceRefresh } from "../dcf/route-parts";
import type { DcfResultBody } from "../dcf/schema";
import { SensitivityQuery, sensitivityInput } from "../dcf/sensitivity-query";
import { SectionsParam } from "../fundamentals/get-deep";
import { CodesParam } from "../insider/get";
import { FeedTickersParam, LanguageParam, lang } from "../news/schema";
import { textParam } from "../openapi";
import { BoolParam, CurrencyParam, DateParam, ExchangeParam, IsinParam, TickerParam } from "../params";
import { requestedTickers, TickersParam } from "../realtime/list-quotes";
import { ScreenQuery } from "../technical/screen";
import { ConditionsQuery } from "../technical/screen-conditions";
import type { WidgetRoutes } from "./define";

/** For the generated nets, as on /dcf: the valuation reads the enrichment, and may store the risk-free rate. */
const DCF_NETS = { "x-writes": true, "x-precondition": ENRICHED_FIRST };

/** A valuation's models (and their consensus) as rows: value per share, upside, the rate it was discounted at. */
function valuationRows(v: DcfResultBody): Row[] {
  const rows: Row[] = [];
  for (const [key, m] of Object.entries(v.models)) {
    if (!m) continue;
    rows.push({
      model: key,
      name: m.model_name,
      intrinsic_value_per_share: decimalOrNull(m.intrinsic_value_per_share),
      upside_pct: decimalOrNull(m.upside_pct),
      discount_rate: decimalOrNull(m.discount_rate),
      discount_rate_basis: m.discount_rate_basis,
      weight: decimalOrNull(v.consensus_weights[key]),
      currency: v.currency,
      reason: m.reason,
    });
  }
  rows.push({
    model: "consensus",
    name: "Weighted consensus",
    intrinsic_value_per_share: decimalOrNull(v.consensus_value),
    upside_pct: decimalOrNull(v.consensus_upside_pct),
    discount_rate: decimalOrNull(v.wacc.wacc),
    discount_rate_basis: "wacc",
    weight: 1,
    currency: v.currency,
    reason: null,
  });
  return rows;
}

/** The rendered fundamentals and the deep document: one row per figure, by section. */
export function registerFundamentalsTables(routes: WidgetRoutes) {
  routes.add({
    path: "/workspace/fundamental",
    kind: "table",
    description:
      "Feeds the svc_fundamentals table widget: the /fundamental document (EODHD layout; no `fmt`) flattened into rows of section, field, value and the figure's source. Any key.",
    summary: "svc_fundamentals: the fundamentals document as rows of section, field, value and source",
    params: {},
    query: {
      ticker: TickerParam.optional(),
      isin: IsinParam.optional(),
      exchange: ExchangeParam.optional(),
      currency: CurrencyParam.optional(),
      provider: textParam(200).optional(),
      nocache: BoolParam,
    },
    errors: [404],
    extensions: { "x-writes": true, "x-example-query": "ticker=MC.PA" },
    handle: async (c, q) => {
      const doc = (await getRenderedFundamentals({ ctx: c.get("deps"), input: { ...q, fmt: "eodhd" } })) as Record<
        string,
        unknown
      >;
      const { Sources, Providers, ...sections } = doc;
      const sources = (Sources ?? {}) as Record<string, Record<string, unknown>>;
      return documentRows(sections, ["General", "Highlights", "Valuation"]).map((r) => {
        const field = r.field.split(/[.[]/)[0] ?? r.field;
        const source = sources[r.section]?.[field];
        return { ...r, source: typeof source === "string" ? source : null };
      });
    },
  });
  routes.add({
    path: "/workspace/fundamental/deep",
    kind: "table",
    description:
      "Feeds the svc_fundamentals_deep table widget: the /fundamental/deep document (highlights, statements, earnings, ratings) flattened into section, field and value rows, without its meta block. Any key.",
    summary: "svc_fundamentals_deep: the deep document (highlights, statements, earnings, ratings) as rows",
    params: {},
    query: { ticker: TickerParam.optional(), isin: IsinParam.optional(), refresh: BoolParam, sections: SectionsParam },
    errors: [404],
    extensions: { "x-example-query": "ticker=MC.PA&sections=highlights", "x-writes": true },
    handle: async (c, q) => {
      const { meta, ...doc } = (await getDeepFundamentals({ ctx: c.get("deps"), input: q })) as unknown as Record<
        string,
        unknown
      >;
      return documentRows(doc, ["asset_profile", "highlights"]);
    },
  });
}

/** Quotes, the screener, news, valuations, insiders, ETFs and indices. */
export function registerTableWidgets(routes: WidgetRoutes) {
  registerFundamentalsTables(routes);
  routes.add({
    path: "/workspace/quotes",
    kind: "table",
    description:
      "Feeds the svc_quotes_batch table widget: one row per ticker (the first 20) from /quotes with price, change, percent change, previous close and volume as numbers, and an `error` column for a ticker without a quote. Any key; never starts a stream.",
    summary:
      "svc_quotes_batch: one row per ticker (the first 20): price, change, volume; an error for a ticker without a quote",
    params: {},
    query: { tickers: TickersParam },
    handle: async (c, q) => {
      const r = await getQuotes({ ctx: c.get("deps"), input: { tickers: requestedTickers(q.tickers) } });
      return r.tickers.map((t) => {
        const quote = r.quotes[t];
        return {
          ticker: t,
          price: decimalOrNull(quote?.price),
          change: decimalOrNull(quote?.change),
          change_pct: decimalOrNull(quote?.change_pct),
          previous_close: decimalOrNull(quote?.previous_close),
          volume: quote?.volume ?? null,
          is_realtime: quote?.is_realtime ?? null,
          source: quote?.source ?? null,
          timestamp: quote?.timestamp ?? null,
          error: quote ? null : (r.errors[t] ?? "no quote"),
        };
      });
    },
  });
  routes.add({
    path: "/workspace/technical/screen",
    kind: "table",
    description:
      "Feeds the svc_screener table widget: the matches of /technical/screen (ticker, name, ISIN, indicator, value); while the day's queued run is computed, the answer is a single row carrying the message instead of a 202. Any key.",
    summary: "svc_screener: the catalogue instruments whose last indicator value meets the condition",
    params: {},
    query: ScreenQuery,
    // A length no snapshot holds may start the day's queued run.
    extensions: { "x-writes": true },
    handle: async (c, q) => {
      const r = await screen({ ctx: c.get("deps"), input: q });
      // A queued screen has no rows yet: the table says so in its one row.
      if ("status" in r)
        return [{ ticker: null, name: r.message, isin: null, indicator: r.run.indicator, value: null }];
      return r.matches.map((m) => ({
        ticker: m.ticker,
        name: m.name,
        isin: m.isin,
        indicator: r.indicator,
        value: Number(m.value),
      }));
    },
  });
  routes.add({
    path: "/workspace/technical/screen/conditions",
    kind: "table",
    description:
      "Feeds the svc_screener_conditions table widget (one of the service's own): the matches of /technical/screen/conditions, with every value tested in one `tested` column; a single message row while a queued term is computed. Any key.",
    summary: "svc_screener_conditions: the catalogue instruments meeting every condition, with the values tested",
    params: {},
    query: ConditionsQuery,
    // A term no snapshot holds may start the day's queued run.
    extensions: { "x-writes": true },
    handle: async (c, q) => {
      const r = await screenByConditions({ ctx: c.get("deps"), input: q });
      // A term computed in the background has no rows yet: the table says so in its one row.
      if ("status" in r)
        return [
          {
            ticker: null,
            name: r.message,
            isin: null,
            as_of: null,
            close: null,
            currency: null,
            tested: null,
            figures_as_of: null,
            missing_session: null,
          },
        ];
      return r.matches.map((m) => ({
        ticker: m.ticker,
        name: m.name,
        isin: m.isin,
        as_of: m.as_of,
        close: decimalOrNull(m.close),
        currency: m.currency,
        // The values vary with the conditions: one column says them all.
        tested: Object.entries(m.values)
          .map(([k, v]) => `${k} ${v ?? "unknown"}`)
          .join(", "),
        figures_as_of: m.figures_as_of,
        missing_session: m.missing_session,
      }));
    },
  });
  routes.add({
    path: "/workspace/news/{ticker}",
    queryPath: "/workspace/news",
    kind: "table",
    description:
      "Feeds the svc_news table widget: the articles of /news/{ticker} as rows (time, title, source, provider, language, URL, tickers), newest first. Any key; unlike /news/{ticker}, a `limit` above 100 is lowered to 100 rather than refused.",
    summary: "svc_news: a ticker's news, newest first",
    params: { ticker: TickerParam },
    query: {
      limit: z.coerce.number().int().min(1).max(1000).default(20),
      language: LanguageParam,
      force_refresh: BoolParam,
    },
    extensions: { "x-writes": true },
    handle: async (c, q) => {
      const deps = c.get("deps");
      const limit = Math.min(q.limit, deps.config.NEWS_MAX_LIMIT);
      const r = await getNews({
        ctx: deps,
        input: { ticker: q.ticker, limit, language: lang(q.language), forceRefresh: q.force_refresh },
      });
      return r.articles.map(articleRow);
    },
  });
  routes.add({
    path: "/workspace/news/feed",
    kind: "table",
    description:
      "Feeds the svc_news_feed table widget: the newest stored articles across instruments from /news/feed, 20 by default. Any key.",
    summary: "svc_news_feed: the newest stored articles across instruments (20 by default)",
    params: {},
    query: {
      limit: z.coerce.number().int().min(1).max(1000).default(20),
      language: LanguageParam,
      tickers: FeedTickersParam,
    },
    handle: async (c, q) => {
      const r = await getNewsFeed({
        ctx: c.get("deps"),
        input: { limit: q.limit, language: lang(q.language), tickers: q.tickers },
      });
      return r.articles.map(articleRow);
    },
  });
  // The default valuation and the three models: the same parameters and rows, another service call.
  for (const [suffix, widget, summary, description, valuation] of [
    [
      "",
      "svc_dcf",
      "the default valuation (fcf) and its consensus as rows",
      "Feeds the svc_dcf table widget: the default fcf valuation of /dcf/{ticker} and its consensus as rows (value per share, upside, discount rate, weight, currency). Any key; a ticker never enriched is enriched first instead of answering 404.",
      getDcf,
    ],
    [
      "/compare",
      "svc_dcf_compare",
      "the fcf, eps and ddm values side by side, with their consensus",
      "Feeds the svc_dcf_compare table widget: the fcf, eps and ddm values of /dcf/{ticker}/compare side by side with their weighted consensus, one row per model. Any key; a ticker never enriched is enriched first.",
      compareDcf,
    ],
  ] as const)
    routes.add({
      path: `/workspace/dcf/{ticker}${suffix}`,
      queryPath: `/workspace/dcf${suffix}`,
      kind: "table",
      summary: `${widget}: ${summary}`,
      description,
      params: { ticker: DcfTicker },
      query: { force_refresh: forceRefresh },
      errors: [404],
      extensions: DCF_NETS,
      handle: async (c, q) => {
        const ctx = c.get("deps");
        const input = { ticker: q.ticker, forceRefresh: q.force_refresh };
        return valuationRows(await withEnrichment(ctx, q.ticker, () => valuation({ ctx, input })));
      },
    });
  routes.add({
    path: "/workspace/dcf/{ticker}/sensitivity",
    queryPath: "/workspace/dcf/sensitivity",
    kind: "table",
    description:
      "Feeds the svc_dcf_sensitivity table widget: the /dcf/{ticker}/sensitivity grid as one row per discount rate and one `growth_<bp>bp` column per terminal growth. Any key; a ticker never enriched is enriched first.",
    summary: "svc_dcf_sensitivity: value per share, one row per discount rate, one column per terminal growth",
    params: { ticker: DcfTicker },
    query: SensitivityQuery,
    errors: [404],
    extensions: DCF_NETS,
    handle: async (c, q) => {
      const ctx = c.get("deps");
      const { ticker, ...rest } = q;
      const input = sensitivityInput(ticker, rest);
      const r = await withEnrichment(ctx, ticker, () => dcfSensitivity({ ctx, input }));
      return r.matrix.map((cells, i) => {
        const row: Row = { discount_rate: decimalOrNull(r.wacc_range[i]) };
        for (const cell of cells) row[growthColumn(cell.growth)] = decimalOrNull(cell.intrinsic_value_per_share);
        return row;
      });
    },
  });
  routes.add({
    path: "/workspace/insider-transactions/{ticker}",
    queryPath: "/workspace/insider-transactions",
    kind: "table",
    description:
      "Feeds the svc_insider_transactions table widget: Form 4 transactions from /insider-transactions/{ticker} as flat rows, newest first. Any key; 404 for a non-US listing.",
    summary: "svc_insider_transactions: Form 4 transactions, newest first",
    params: { ticker: TickerParam.openapi({ example: "AAPL" }) },
    query: {
      limit: z.coerce.number().int().min(1).max(1000).default(50),
      from: DateParam.optional(),
      to: DateParam.optional(),
      code: CodesParam.optional(),
    },
    errors: [404],
    extensions: { "x-writes": true },
    handle: async (c, q) => {
      const r = await getInsiderTransactions({
        ctx: c.get("deps"),
        input: { ticker: q.ticker, limit: q.limit, from: q.from, to: q.to, codes: q.code },
      });
      return flatRows(r.transactions as unknown as Record<string, unknown>[]);
    },
  });
  routes.add({
    path: "/workspace/etf/{isin}/details",
    queryPath: "/workspace/etf/details",
    kind: "table",
    description:
      "Feeds the svc_etf_details table widget: one row per top holding of the ETF from /etf/{isin}/details, with the fund's expense ratio, yield, total assets and currency repeated on each row. Any key.",
    summary: "svc_etf_details: the fund's top holdings with its figures on each row",
    params: { isin: IsinParam.openapi({ example: "IE00B4L5Y983" }) },
    query: {},
    errors: [404],
    extensions: { "x-writes": true },
    handle: async (c, q) => {
      const d = await getEtfDetails({ ctx: c.get("deps"), input: { isin: q.isin } });
      const fund = flatRow({
        fund: d.name,
        isin: d.isin,
        expense_ratio: d.expense_ratio,
        yield: d.yield,
        total_assets: d.total_assets,
        currency: d.currency,
      });
      return d.top_holdings.map((h, i) => ({
        rank: i + 1,
        symbol: h.symbol,
        holding: h.name,
        weight: h.weight,
        ...fund,
      }));
    },
  });
  routes.add({
    path: "/workspace/index/{index_name}/constituents",
    queryPath: "/workspace/index/constituents",
    kind: "table",
    description:
      "Feeds the svc_index_constituents table widget: the stored members of an index from /index/{index_name}/constituents, heaviest first. Any key.",
    summary: "svc_index_constituents: the stored members of an index, heaviest first",
    params: { index_name: textParam(40).openapi({ example: "cac40" }) },
    query: {},
    errors: [404],
    handle: async (c, q) => {
      const r = await getIndexConstituents({ ctx: c.get("deps"), input: { name: q.index_name } });
      return r.members.map((m) => ({ index: r.index.code, ...m }));
    },
  });

  routes.add({
    path: "/workspace/exchanges/{code}/calendar",
    queryPath: "/workspace/exchanges/calendar",
    kind: "table",
    description:
      "Feeds the svc_exchange_calendar table widget (one of the service's own): the holidays and early closes of /exchanges/{code} for this year and next, one row per date with its weekday. Any key.",
    summary: "svc_exchange_calendar: a venue's holidays and early closes this year and next, by date",
    params: { code: textParam(20).openapi({ example: "XETRA" }) },
    query: {},
    errors: [404],
    handle: async (c, q) => {
      const { body } = getExchange({ ctx: c.get("deps"), input: { code: q.code } });
      return calendarRows(body);
    },
  });
}

/** A venue's closures and short sessions as one table by date, each row saying which it is. */
function calendarRows(venue: ExchangeBody): Row[] {
  const weekday = (date: string) =>
    new Date(`${date}T00:00:00Z`).toLocaleDateString("en-GB", { weekday: "long", timeZone: "UTC" });
  return [
    ...venue.holidays.map((h) => ({
      date: h.date,
      weekday: weekday(h.date),
      kind: "holiday",
      name: h.name,
      close: null,
    })),
    ...venue.early_closes.map((e) => ({
      date: e.date,
      weekday: weekday(e.date),
      kind: "early close",
      name: null,
      close: e.close,
    })),
  ].sort((a, b) => a.date.localeCompare(b.date));
}

function articleRow(a: {
  published_at: string;
  title: string;
  source: string;
  provider: string;
  language: string | null;
  url: string;
  related_tickers: string[];
}): Row {
  return {
    published_at: a.published_at,
    title: a.title,
    source: a.source,
    provider: a.provider,
    language: a.language,
    url: a.url,
    tickers: a.related_tickers.join(", "),
  };
}
