import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { DividendsBody } from "../../src/routes/corporate-actions/schema";
import type { EodAnswer } from "../../src/routes/eod/schema";
import type { IntradayBody } from "../../src/routes/intraday/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import type { Quote } from "../../src/routes/realtime/schema";
import { READ_ONLY_KEY } from "../helpers/keys";
import { forgetCached, resetTickers } from "../helpers/listings";
import { answerFits, checkApps, checkWidgets, defaultQuery } from "../helpers/openbb-rules";
import { call } from "../helpers/worker-http";

/** The spec's table of widgets: id, type and the route each adapts. */
const SPEC_WIDGETS: Record<string, "metric" | "chart" | "table"> = {
  svc_quote: "metric",
  svc_macro_rates: "metric",
  svc_eod: "chart",
  svc_history: "chart",
  svc_technical: "chart",
  svc_technical_multi: "chart",
  svc_technical_chart: "chart",
  svc_fundamentals: "table",
  svc_fundamentals_deep: "table",
  svc_quotes_batch: "table",
  svc_screener: "table",
  svc_news: "table",
  svc_news_feed: "table",
  svc_dcf: "table",
  svc_dcf_compare: "table",
  svc_dcf_sensitivity: "table",
  svc_insider_transactions: "table",
  svc_etf_details: "table",
  svc_index_constituents: "table",
};
/** The venues' calendars are held through 2027: the calendar widget is asked at a pinned instant. */
const pinnedFor = (id: string) => (id === "svc_exchange_calendar" ? { at: "2026-11-27T10:00:00Z" } : {});
/** Four of our own beyond the spec's: where a picture reads better than a route's table, and a screen of several conditions. */
const OWN_WIDGETS: Record<string, "metric" | "chart" | "table"> = {
  svc_screener_conditions: "table",
  svc_dividends: "chart",
  svc_intraday: "chart",
  svc_exchange_calendar: "table",
};

type Widgets = Record<string, Record<string, unknown> & { type: string; endpoint: string }>;
type Tile = { label: string; value: number | string; delta: number | string | null };
type Figure = { data: Record<string, unknown>[]; layout: Record<string, unknown> };
type Rows = Record<string, unknown>[];

const WORKSPACE = "https://pro.openbb.co";

/** A request as a browser page of `origin` sends it (no key unless given). */
function fromBrowser(
  path: string,
  init: { method?: string; origin: string; key?: string; headers?: Record<string, string> },
) {
  const headers = new Headers({ Origin: init.origin, ...init.headers });
  if (init.key) headers.set("X-API-KEY", init.key);
  return exports.default.fetch(new Request(`http://svc${path}`, { method: init.method ?? "GET", headers }));
}

describe("the discovery files", () => {
  it("GET /widgets.json (public) lists the spec's 19 widgets and our 4, each of its type, and passes the workspace's checks", async () => {
    const res = await call<Widgets>("/widgets.json", { key: null });
    expect(res.status).toBe(200);
    const widgets = res.body;
    expect(Object.fromEntries(Object.entries(widgets).map(([id, w]) => [id, w.type]))).toEqual({
      ...SPEC_WIDGETS,
      ...OWN_WIDGETS,
    });
    expect(checkWidgets(widgets)).toEqual({ errors: [], warnings: [] });
    for (const [id, w] of Object.entries(widgets)) {
      expect(w.endpoint, id).toMatch(/^workspace\//);
      // The workspace sends query parameters only: no endpoint has a {placeholder}.
      expect(w.endpoint, id).not.toMatch(/[{}]/);
      expect(typeof w.description, id).toBe("string");
    }
  });

  it("GET /apps.json (public) has the two dashboards, inside the grid, no overlaps, groups named Group N", async () => {
    const widgets = (await call<Widgets>("/widgets.json", { key: null })).body;
    const res = await call<{ name: string }[]>("/apps.json", { key: null });
    expect(res.status).toBe(200);
    expect(res.body.map((a) => a.name)).toEqual(["EU markets", "Screener and macro"]);
    expect(checkApps(res.body, new Set(Object.keys(widgets)))).toEqual({ errors: [], warnings: [] });
  });

  it("the checkers refuse what the workspace refuses (they are not always-true)", () => {
    expect(checkWidgets([]).errors).toEqual(["widgets.json must be an object keyed by widget id"]);
    expect(
      checkWidgets({ a: { name: "A", type: "grid", endpoint: "x", params: [{ paramName: "p", type: "select" }] } })
        .errors,
    ).toEqual(["[a] unknown type grid", "[a] param p unknown type select"]);
    const overlapping = [
      {
        name: "x",
        allowCustomization: true,
        tabs: {
          t: {
            id: "t",
            name: "T",
            layout: [
              { i: "a", x: 0, y: 0, w: 30, h: 5 },
              { i: "a", x: 20, y: 2, w: 30, h: 5 },
            ],
          },
        },
        groups: [{ name: "Tickers", type: "param", paramName: "ticker", widgetIds: ["b"] }],
        prompts: [],
      },
    ];
    expect(checkApps(overlapping, new Set(["a"]))).toEqual({
      errors: [
        "[app 0] tab t a: beyond the 40-column grid",
        "[app 0] tab t a overlaps a",
        "[app 0] group Tickers: unknown widget b",
      ],
      warnings: ["[app 0] missing description", '[app 0] group Tickers is not named "Group N"'],
    });
    expect(answerFits("metric", [{ label: "x" }])).toBe(false);
    expect(answerFits("chart", [])).toBe(false);
  });
});

/**
 * This file's instruments, which no other test file resets or faults: a US share (EDGAR has its
 * filings) and a European one.
 */
const US = "GOOG";
const EU = "BAS.DE";
/** The widgets asked about the European share (the valuation and fundamentals ones); the others about the US one. */
const ON_EU = new Set([
  "svc_fundamentals",
  "svc_fundamentals_deep",
  "svc_dcf",
  "svc_dcf_compare",
  "svc_dcf_sensitivity",
]);

// Nothing of this file's instruments stored or cached: each first view stores what it reads.
beforeAll(() => resetTickers(US, EU));

describe("the 23 widgets", () => {
  it("each answers its widgets.json defaults in query form, with a read-only key, in its type's shape, not empty", async () => {
    // The insider widget's first view reads a year of Form 4 filings at EDGAR's pace, each within the
    // tests' 1.5 s provider limit, which a loaded machine may pass (a 503 that says so): the filings
    // are stored first, as an earlier view would have, so that the widget's view asks EDGAR for the
    // list alone. What is checked is the widget's answer.
    for (let i = 0; i < 3; i++)
      if ((await call(`/insider-transactions/${US}`, { key: READ_ONLY_KEY })).status === 200) break;
    const widgets = (await call<Widgets>("/widgets.json", { key: null })).body;
    // Dependencies first: the screeners read stored prices, the feed stored articles.
    const last = new Set(["svc_screener", "svc_screener_conditions", "svc_news_feed"]);
    const order = Object.keys(widgets).sort((a, b) => Number(last.has(a)) - Number(last.has(b)));
    for (const id of order) {
      const w = widgets[id] as Widgets[string];
      const query = new URLSearchParams(defaultQuery(w));
      if (query.has("ticker")) query.set("ticker", ON_EU.has(id) ? EU : US);
      // The screener's default (RSI under 30) may match nothing: every instrument with prices.
      if (id === "svc_screener") {
        query.set("operator", "gt");
        query.set("value", "0");
      }
      if (id === "svc_screener_conditions") query.set("where", "rsi_14 > 0 and close > 0");
      if (id === "svc_news_feed") query.set("tickers", US);
      const res = await call<unknown>(`/${w.endpoint}?${query}`, { key: READ_ONLY_KEY, ...pinnedFor(id) });
      const shown = `${id}: ${JSON.stringify(res.body).slice(0, 300)}`;
      expect(res.status, shown).toBe(200);
      expect(answerFits(w.type, res.body), shown).toBe(true);
      if (w.type === "chart") expect((res.body as Figure).data.length, shown).toBeGreaterThan(0);
      else expect((res.body as unknown[]).length, shown).toBeGreaterThan(0);
      // Every column a table widget declares is a field of its rows.
      const columns = (
        (w.data as { table?: { columnsDefs?: { field: string }[] } } | undefined)?.table?.columnsDefs ?? []
      ).map((c) => c.field);
      if (w.type === "table")
        expect(
          columns.filter((f) => !Object.hasOwn((res.body as Rows)[0] ?? {}, f)),
          shown,
        ).toEqual([]);
    }
  });

  it("answer alike in the spec's path form and the workspace's query form", async () => {
    const pairs = [
      ["/workspace/index/cac40/constituents", "/workspace/index/constituents?index_name=cac40"],
      ["/workspace/etf/IE00B4L5Y983/details", "/workspace/etf/details?isin=IE00B4L5Y983"],
      [`/workspace/dcf/${EU}/compare`, `/workspace/dcf/compare?ticker=${EU}`],
    ];
    for (const [path, query] of pairs) {
      const a = await call<Rows>(path ?? "", { key: READ_ONLY_KEY });
      const b = await call<Rows>(query ?? "", { key: READ_ONLY_KEY });
      expect(a.status).toBe(200);
      expect(a.body.length).toBeGreaterThan(0);
      expect(b.body).toEqual(a.body);
    }
  });
});

describe("svc_dividends, svc_intraday and svc_exchange_calendar", () => {
  it("draws the dividends /dividends answers, as columns by ex-date", async () => {
    const stored = (await call<DividendsBody>(`/dividends/${US}`, { key: READ_ONLY_KEY })).body;
    expect(stored.dividends.length).toBeGreaterThan(0);
    const raw = await call<Rows>(`/workspace/dividends?ticker=${US}&raw=true`, { key: READ_ONLY_KEY });
    expect(raw.body).toEqual(stored.dividends.map((d) => ({ ex_date: d.ex_date, amount: d.amount, currency: "USD" })));
    const figure = (await call<Figure>(`/workspace/dividends?ticker=${US}&theme=light`, { key: READ_ONLY_KEY })).body;
    expect(figure.data).toEqual([
      {
        type: "bar",
        name: "Dividend per share",
        x: stored.dividends.map((d) => d.ex_date),
        y: stored.dividends.map((d) => d.amount),
        marker: { color: "#E65100" },
      },
    ]);
    expect(figure.layout.yaxis).toMatchObject({ title: { text: "USD" } });
  });

  it("draws the intraday bars /intraday answers, as candlesticks over volume", async () => {
    const stored = (await call<IntradayBody>(`/intraday/${US}?interval=15m`, { key: READ_ONLY_KEY })).body;
    expect(stored.bars.length).toBeGreaterThan(0);
    const raw = await call<Rows>(`/workspace/intraday?ticker=${US}&interval=15m&raw=true`, { key: READ_ONLY_KEY });
    expect(raw.body).toEqual(
      stored.bars.map((b) => ({
        date: b.datetime,
        open: b.open,
        high: b.high,
        low: b.low,
        close: b.close,
        volume: b.volume,
        source: b.source,
      })),
    );
    const figure = (await call<Figure>(`/workspace/intraday/${US}?interval=15m`, { key: READ_ONLY_KEY })).body;
    const candles = figure.data.find((t) => t.type === "candlestick");
    expect(candles?.x).toEqual(stored.bars.map((b) => b.datetime));
    expect(candles?.close).toEqual(stored.bars.map((b) => b.close));
  });

  it("lists a venue's holidays and early closes of this year and the next, by date", async () => {
    const res = await call<Rows>("/workspace/exchanges/calendar?code=xetra", {
      key: READ_ONLY_KEY,
      at: "2026-11-27T10:00:00Z",
    });
    expect(res.status).toBe(200);
    expect(res.body.slice(0, 2)).toEqual([
      { date: "2026-01-01", weekday: "Thursday", kind: "holiday", name: "New Year's Day", close: null },
      { date: "2026-04-03", weekday: "Friday", kind: "holiday", name: "Good Friday", close: null },
    ]);
    expect(res.body.map((r) => r.date)).toEqual(res.body.map((r) => r.date as string).sort());
    expect(res.body.filter((r) => r.kind === "early close")).toContainEqual({
      date: "2026-12-30",
      weekday: "Wednesday",
      kind: "early close",
      name: null,
      close: "14:00",
    });
    expect((await call<Rows>("/workspace/exchanges/NOPE/calendar", { key: READ_ONLY_KEY })).status).toBe(404);
  });
});

describe("svc_quote", () => {
  it("is the quote as the spec's tiles, and never starts a stream", async () => {
    const quote = (await call<Quote>(`/quote/${US}`, { key: READ_ONLY_KEY })).body;
    // A full-access key, which could start a stream on /quote?subscribe_if_missing: the widget never does.
    const res = await call<Tile[]>(`/workspace/quote?ticker=${US}`);
    expect(res.status).toBe(200);
    const pct = Number(quote.change_pct);
    const signed = (s: string) => (Number(s) > 0 ? `+${s}` : s);
    const expected: Tile[] = [
      { label: `${US} Price`, value: Number(quote.price), delta: pct },
      { label: "Change", value: signed(quote.change), delta: signed(quote.change_pct) },
    ];
    if (quote.previous_close !== null)
      expected.push({ label: "Previous Close", value: Number(quote.previous_close), delta: null });
    if (quote.high !== null) expected.push({ label: "Day High", value: Number(quote.high), delta: null });
    if (quote.low !== null) expected.push({ label: "Day Low", value: Number(quote.low), delta: null });
    if (quote.volume !== null) expected.push({ label: "Volume", value: quote.volume, delta: null });
    expect(res.body).toEqual(expected);
    expect(res.body.length).toBeGreaterThanOrEqual(3);
    // Every delta is a number to the workspace: a number, or a numeric string ("+1.03", never "+1.03%").
    for (const t of res.body)
      if (t.delta !== null) expect(Number.isFinite(Number(t.delta)), `${t.label} delta ${t.delta}`).toBe(true);
    const status = (await call<{ active_tickers: string[] }>("/realtime/status")).body;
    expect(status.active_tickers).not.toContain(US);
  });

  it("answers an unknown ticker 404 with the message where the workspace reads it (detail)", async () => {
    const res = await call<ErrorBody>("/workspace/quote?ticker=ZZZZQ", { key: READ_ONLY_KEY });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe(res.body.message);
    expect(res.body.detail).toContain("ZZZZQ");
    const missing = await call<ErrorBody>("/workspace/quote", { key: READ_ONLY_KEY });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toMatch(/ticker/);
  });
});

describe("chart widgets", () => {
  it("svc_eod: candlesticks of /eod's bars with volume in a pane below, in the theme's colours; raw=true gives the rows", async () => {
    const eod = (await call<EodAnswer>(`/eod/${EU}?period=1y`)).body;
    const dark = (await call<Figure>(`/workspace/eod?ticker=${EU}`, { key: READ_ONLY_KEY })).body;
    const [candles, volume] = dark.data;
    expect(candles).toMatchObject({ type: "candlestick", yaxis: "y" });
    expect(candles?.x).toEqual(eod.data.map((b) => b.Date));
    expect(candles?.close).toEqual(eod.data.map((b) => b.Close));
    expect(volume).toMatchObject({ type: "bar", yaxis: "y2" });
    expect(volume?.y).toEqual(eod.data.map((b) => b.Volume));
    const axes = dark.layout as { yaxis: { domain: number[] }; yaxis2: { domain: number[] }; paper_bgcolor: string };
    // Volume under the price, not over it.
    expect(axes.yaxis2.domain[1]).toBeLessThan(axes.yaxis.domain[0] as number);
    expect(axes.paper_bgcolor).toBe("#151518");
    const light = (await call<Figure>(`/workspace/eod?ticker=${EU}&theme=light`, { key: READ_ONLY_KEY })).body;
    expect(light.layout.paper_bgcolor).toBe("#FFFFFF");
    const raw = (await call<Rows>(`/workspace/eod?ticker=${EU}&raw=true`, { key: READ_ONLY_KEY })).body;
    expect(raw.length).toBe(eod.count);
    expect(raw[0]).toEqual({
      date: eod.data[0]?.Date,
      open: eod.data[0]?.Open,
      high: eod.data[0]?.High,
      low: eod.data[0]?.Low,
      close: eod.data[0]?.Close,
      adj_close: eod.data[0]?.["Adj Close"],
      volume: eod.data[0]?.Volume,
    });
  });

  it("svc_technical_chart: the average over the price, the RSI in its own pane with 30/70 guides", async () => {
    await call(`/eod/${EU}?period=1y`);
    const fig = (await call<Figure>(`/workspace/technical/chart?ticker=${EU}`, { key: READ_ONLY_KEY })).body;
    const byName = Object.fromEntries(fig.data.map((t) => [String(t.name), t]));
    expect(byName["SMA 20"]).toMatchObject({ type: "scatter", yaxis: "y" });
    expect(byName["RSI 14"]).toMatchObject({ type: "scatter", yaxis: "y3" });
    const guides = (fig.layout.shapes as { yref: string; y0: number }[]).map((s) => [s.yref, s.y0]);
    expect(guides).toEqual([
      ["y3", 30],
      ["y3", 70],
    ]);
    // The same numbers as the route it adapts.
    const chart = (
      await call<{ indicators: Record<string, (number | null)[]> }>(`/technical/${EU}/chart?indicators=sma_20,rsi_14`)
    ).body;
    expect(byName["SMA 20"]?.y).toEqual(chart.indicators.sma_20);
  });

  it("an empty chart is a figure that says why, not an error; an unknown ticker is a 404 that says so", async () => {
    const res = await call<Figure>(`/workspace/technical/chart?ticker=${EU}&from_date=2001-01-02&to_date=2001-02-01`, {
      key: READ_ONLY_KEY,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect((res.body.layout.annotations as { text: string }[])[0]?.text).toContain(EU);
    const unknown = await call<ErrorBody>("/workspace/technical/chart?ticker=ZZZZQ", { key: READ_ONLY_KEY });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toContain("ZZZZQ");
  });

  it("keeps two lengths of one indicator apart, and takes names in capitals", async () => {
    const multi = (
      await call<Figure>(`/workspace/technical/multi?ticker=${EU}&indicators=sma_20,sma_50,macd`, {
        key: READ_ONLY_KEY,
      })
    ).body;
    expect(multi.data.map((t) => t.name)).toEqual([
      "Price",
      "SMA 20",
      "SMA 50",
      "Volume",
      "MACD 12 26 9: MACD",
      "MACD 12 26 9: Signal",
      "MACD 12 26 9: Histogram",
    ]);
    const raw = (
      await call<Rows>(`/workspace/technical/multi?ticker=${EU}&indicators=sma_20,sma_50&raw=true`, {
        key: READ_ONLY_KEY,
      })
    ).body;
    expect(Object.keys(raw.at(-1) ?? {})).toEqual(["t", "open", "high", "low", "close", "volume", "sma_20", "sma_50"]);
    const chart = (
      await call<Figure>(`/workspace/technical/chart?ticker=${EU}&indicators=SMA_20,sma_20`, { key: READ_ONLY_KEY })
    ).body;
    expect(chart.data.filter((t) => t.name === "SMA 20").length).toBe(1);
  });
});

describe("table widgets", () => {
  it("an empty table is 200 []", async () => {
    const res = await call<Rows>("/workspace/news/feed?tickers=ZZZZQ", { key: READ_ONLY_KEY });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("svc_dcf_sensitivity: one row per discount rate, one column per growth, the values of the route it adapts", async () => {
    const grid = (
      await call<{ wacc_range: string[]; matrix: { growth: string; intrinsic_value_per_share: string | null }[][] }>(
        `/dcf/${EU}/sensitivity`,
      )
    ).body;
    const rows = (await call<Rows>(`/workspace/dcf/sensitivity?ticker=${EU}`, { key: READ_ONLY_KEY })).body;
    expect(rows.map((r) => r.discount_rate)).toEqual(grid.wacc_range.map(Number));
    const first = grid.matrix[0] ?? [];
    expect(first.length).toBe(5);
    for (const cell of first)
      expect(rows[0]?.[`growth_${Math.round(Number(cell.growth) * 10_000)}bp`]).toBe(
        cell.intrinsic_value_per_share === null ? null : Number(cell.intrinsic_value_per_share),
      );
  });

  it("svc_screener_conditions: the matches of the route it adapts, the values tested in one column", async () => {
    // The screen reads stored prices: the ticker's are stored first.
    expect((await call(`/eod/${US}?period=5d`)).status).toBe(200);
    await forgetCached("screener:*");
    const where = encodeURIComponent("rsi_14 > 0 and close > sma_20");
    const route = (
      await call<{ matches: { ticker: string; close: string; as_of: string; values: Record<string, string> }[] }>(
        `/technical/screen/conditions?where=${where}`,
      )
    ).body;
    const rows = (await call<Rows>(`/workspace/technical/screen/conditions?where=${where}`, { key: READ_ONLY_KEY }))
      .body;
    expect(route.matches.length).toBeGreaterThan(0);
    expect(rows.map((r) => [r.ticker, r.as_of, r.close, r.tested])).toEqual(
      route.matches.map((m) => [
        m.ticker,
        m.as_of,
        Number(m.close),
        `rsi_14 ${m.values.rsi_14}, sma_20 ${m.values.sma_20}, close ${m.values.close}`,
      ]),
    );
  });
});

describe("CORS for the workspace", () => {
  it("answers a preflight from the workspace's origin 204 with the CORS headers, before any key", async () => {
    const res = await fromBrowser("/workspace/quote?ticker=AAPL", {
      method: "OPTIONS",
      origin: WORKSPACE,
      headers: { "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-api-key" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(WORKSPACE);
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("x-api-key");
    expect(res.headers.get("access-control-allow-methods")).toContain("GET");
    // Keys travel in headers the page sets: no credentials mode, so no ambient cookie is ever borrowed.
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("gives another origin no CORS headers, on a preflight or a request", async () => {
    const pre = await fromBrowser("/workspace/quote", { method: "OPTIONS", origin: "https://evil.example" });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const get = await fromBrowser("/widgets.json", { origin: "https://evil.example" });
    expect(get.status).toBe(200);
    expect(get.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("puts the headers on answers and on errors (a missing key) for the workspace's origin", async () => {
    const ok = await fromBrowser("/workspace/macro/rates", { origin: WORKSPACE, key: READ_ONLY_KEY });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(WORKSPACE);
    expect(ok.headers.get("access-control-allow-credentials")).toBeNull();
    const unauthorized = await fromBrowser("/workspace/macro/rates", { origin: WORKSPACE });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("access-control-allow-origin")).toBe(WORKSPACE);
    expect(((await unauthorized.json()) as ErrorBody).detail).toMatch(/API key/);
    const apps = await fromBrowser("/apps.json", { origin: WORKSPACE });
    expect(apps.headers.get("access-control-allow-origin")).toBe(WORKSPACE);
    // Not a workspace route: no CORS there.
    const eod = await fromBrowser(`/eod/${EU}?period=1mo`, { origin: WORKSPACE, key: READ_ONLY_KEY });
    expect(eod.headers.get("access-control-allow-origin")).toBeNull();
  });
});
