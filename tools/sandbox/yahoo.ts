import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type Clock, systemClock } from "../../src/clock";
import { resample } from "../../src/domain/bars";
import { SimulatorControl, sendJson, type TransportFault } from "./control";
import { simCompany } from "./fundamentals-data";
import {
  chartColumns,
  dailyHistory,
  ISIN_SEARCH_MISSES,
  SIM_LINES_OF_ISIN,
  SIM_SYMBOLS,
  type SimBar,
  type SimSymbol,
} from "./market-data";
import { type GlitchedHistory, glitched, isPriceGlitch, type PriceGlitch } from "./price-glitches";
import { quoteSummaryResult, timeseriesResult } from "./yahoo-fundamentals";
import { fxChart } from "./yahoo-fx";
import { intradayChart, isIntraday } from "./yahoo-intraday";

/**
 * The delayed provider (Yahoo Finance) simulator: chart v8, search v1, quote v7, quoteSummary v10 and
 * fundamentals-timeseries in the real wire format (intraday charts in yahoo-intraday.ts) (one root key, the error envelope, float32-widened
 * prices, null slots), behind the real cookie and crumb handshake (a page of finance.yahoo.com sets
 * the `A3` cookie on `.yahoo.com`, `/v1/test/getcrumb` turns it into a crumb, quoteSummary refuses a
 * request whose crumb is not that cookie's with 401 "Invalid Crumb"), with faults on demand:
 * POST /__sandbox/faults {"symbol": "AAPL" | "*", "mode": FaultMode, "times"?: n} and DELETE /__sandbox/faults.
 * GET /__sandbox/requests counts the chart, search and quote requests per symbol (DELETE resets),
 * so tests can tell how many provider fetches a burst of requests cost.
 */
/**
 * `stall`: headers and the start of a body, then nothing (the body never completes). `error200`: the
 * error envelope with HTTP 200, as the provider sends some refusals. `crumb`: quoteSummary answers
 * 401 "Invalid Crumb" (a crumb the provider has expired). `absurd_pe`: quoteSummary sends a trailing
 * P/E of 48,213.7 (a figure the validation layer must refuse). `percent_scaled`: quoteSummary sends the
 * dividend yields in percent (2.15 for 0.0215), a format change the canary must notice. `drift`:
 * quoteSummary sends the trailing P/E as text ("31.2x") and the earnings history without the
 * quarter of its rows, as a provider that changed its format would: those fields only must be lost.
 * `consent` (symbol "AAPL", the quote page the session handshake opens): that page sends a client
 * without a consent cookie through the EU consent pages first (guce.yahoo.com/consent, then the
 * form at consent.yahoo.com/v2/collectConsent, posted with its hidden fields and agree=agree, then
 * guce.yahoo.com/copyConsent, back to the page), as the provider does to European visitors.
 */
export type FaultMode =
  | "500"
  | "timeout"
  | "stall"
  | "malformed"
  | "unknown"
  | "ratelimit"
  | "error200"
  | "crumb"
  | "absurd_pe"
  | "percent_scaled"
  | "drift"
  | "consent"
  | TransportFault
  | PriceGlitch;

export interface YahooSim {
  url: string;
  close(): Promise<void>;
}

/** ISINs whose identifier search finds nothing (as it often does for UCITS ETFs): callers fall back to a name search. */
const ISIN_SEARCH_EMPTY = new Set(["IE00B4L5Y983", "IE00B5BMR087", "LU1681043599"]);

const f32 = (x: number) => Math.fround(x);
const yesterday = (today: string) => new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

const send = (res: ServerResponse, status: number, body: unknown) =>
  sendJson(res, status, body, "application/json;charset=utf-8");

const envelope = (root: string, code: string, description: string) => ({
  [root]: { result: null, error: { code, description } },
});

function chartMeta(s: SimSymbol, bars: SimBar[], interval: string, range: string) {
  const last = bars.at(-1);
  const prev = bars.at(-2);
  return {
    currency: s.currency,
    symbol: s.symbol,
    exchangeName: s.yahooExchange,
    fullExchangeName: s.fullExchangeName,
    instrumentType: s.quoteType,
    firstTradeDate: bars[0]?.time ?? null,
    regularMarketTime: last?.time ?? null,
    hasPrePostMarketData: false,
    gmtoffset: s.gmtoffset,
    timezone: s.timezone,
    regularMarketPrice: last ? f32(last.close) : null,
    regularMarketDayHigh: last ? f32(last.high) : null,
    regularMarketDayLow: last ? f32(last.low) : null,
    regularMarketVolume: last?.volume ?? null,
    chartPreviousClose: prev ? f32(prev.close) : null,
    priceHint: 2,
    longName: s.name,
    shortName: s.name.slice(0, 24),
    dataGranularity: interval,
    range,
  };
}

const RANGE_DAYS: Record<string, number> = {
  "1d": 1,
  "5d": 7,
  "1mo": 31,
  "3mo": 92,
  "6mo": 183,
  "1y": 366,
  "2y": 731,
  "5y": 1827,
  "10y": 3653,
};

function chart(s: SimSymbol, q: URLSearchParams, today: string, glitch?: { mode: PriceGlitch; date?: string }) {
  const history: GlitchedHistory = glitched(dailyHistory(s.symbol, yesterday(today)), glitch, s.currency);
  const interval = q.get("interval") ?? "1d";
  const range = q.get("range") ?? "";
  let p1 = Number(q.get("period1") ?? 0);
  let p2 = Number(q.get("period2") ?? Date.parse(`${today}T23:59:59Z`) / 1000);
  if (range) {
    p2 = Date.parse(`${today}T23:59:59Z`) / 1000;
    p1 =
      range === "max"
        ? 0
        : range === "ytd"
          ? Date.parse(`${today.slice(0, 4)}-01-01T00:00:00Z`) / 1000
          : p2 - (RANGE_DAYS[range] ?? 366) * 86400;
  }
  let bars = history.bars.filter((b) => b.time >= p1 && b.time < p2);
  if (interval === "1wk" || interval === "1mo") {
    const real = bars.filter((b) => !b.missing);
    const agg = resample(
      real.map((b) => ({
        date: b.date,
        open: b.open,
        high: b.high,
        low: b.low,
        close: b.close,
        adjClose: b.adjclose,
        volume: b.volume,
      })),
      interval === "1wk" ? "weekly" : "monthly",
    );
    const timeOf = new Map(real.map((b) => [b.date, b.time]));
    bars = agg.map((a) => ({
      date: a.date,
      time: timeOf.get(a.date) ?? 0,
      open: a.open,
      high: a.high,
      low: a.low,
      // The glitch users report: longer bars whose close is adjusted for dividends.
      close: history.periodsAdjusted ? a.adjClose : a.close,
      adjclose: a.adjClose,
      volume: a.volume,
      missing: false,
    }));
  }
  const m = chartMeta(s, history.bars, interval, range);
  if (bars.length === 0) return { chart: { result: [{ meta: m, indicators: { quote: [{}] } }], error: null } };
  const col = (pick: (b: SimBar) => number) => bars.map((b) => (b.missing ? null : f32(pick(b))));
  const events: Record<string, unknown> = {};
  const wanted = q.get("events") ?? "";
  const inWindow = (t: number) => t >= p1 && t < p2;
  if (wanted.includes("div")) {
    const divs = history.dividends.filter((d) => inWindow(d.time));
    if (divs.length)
      events.dividends = Object.fromEntries(divs.map((d) => [String(d.time), { amount: d.amount, date: d.time }]));
  }
  if (wanted.includes("capitalGain")) {
    const gains = history.capitalGains.filter((d) => inWindow(d.time));
    if (gains.length)
      events.capitalGains = Object.fromEntries(gains.map((d) => [String(d.time), { amount: d.amount, date: d.time }]));
  }
  if (wanted.includes("split")) {
    const splits = history.splits.filter((d) => inWindow(d.time));
    if (splits.length) {
      events.splits = Object.fromEntries(
        splits.map((d) => [
          String(d.time),
          {
            date: d.time,
            numerator: d.numerator,
            denominator: d.denominator,
            splitRatio: `${d.numerator}:${d.denominator}`,
          },
        ]),
      );
    }
  }
  const { timestamp, quote } = chartColumns(bars);
  const result: Record<string, unknown> = {
    meta: m,
    timestamp,
    indicators: {
      quote,
      // Daily and longer bars come with adjusted closes unless refused (recorded answers carry them unasked).
      ...(q.get("includeAdjustedClose") !== "false" ? { adjclose: [{ adjclose: col((b) => b.adjclose) }] } : {}),
    },
  };
  if (Object.keys(events).length) result.events = events;
  return { chart: { result: [result], error: null } };
}

type Searchable = Pick<SimSymbol, "symbol" | "isin" | "name" | "quoteType" | "yahooExchange" | "fullExchangeName">;

/**
 * Lines the provider's search knows that the catalogue lacks (GET /search lists them as not in
 * the catalogue): a REIT whose ticker is a near miss of Apple's name, and Apple's Xetra line.
 */
const SEARCH_ONLY: readonly Searchable[] = [
  {
    symbol: "APLE",
    isin: "US03784Y2000",
    name: "Apple Hospitality REIT, Inc.",
    quoteType: "EQUITY",
    yahooExchange: "NYQ",
    fullExchangeName: "NYSE",
  },
  {
    symbol: "APC.DE",
    isin: "US0378331005",
    name: "Apple Inc.",
    quoteType: "EQUITY",
    yahooExchange: "GER",
    fullExchangeName: "XETRA",
  },
];

function searchItem(s: Searchable, score: number) {
  return {
    exchange: s.yahooExchange,
    shortname: s.name.toUpperCase().slice(0, 32),
    quoteType: s.quoteType,
    symbol: s.symbol,
    index: "quotes",
    score,
    typeDisp: s.quoteType === "ETF" ? "ETF" : "Equity",
    longname: s.name,
    exchDisp: s.fullExchangeName,
    isYahooFinance: true,
  };
}

function search(q: string) {
  const text = q.trim();
  let quotes: ReturnType<typeof searchItem>[] = [];
  if (/^[A-Z]{2}[A-Z0-9]{10}$/i.test(text)) {
    const isin = text.toUpperCase();
    if (!ISIN_SEARCH_EMPTY.has(isin) && !ISIN_SEARCH_MISSES.has(isin)) {
      quotes = [...(SIM_LINES_OF_ISIN.get(isin) ?? []), ...SEARCH_ONLY.filter((s) => s.isin === isin)].map((s) =>
        searchItem(s, 20000),
      );
    }
  } else if (text.length >= 2) {
    const needle = text.toLowerCase();
    quotes = [...SIM_SYMBOLS.values(), ...SEARCH_ONLY]
      .filter((s) => s.name.toLowerCase().includes(needle) || s.symbol.toLowerCase() === needle)
      .slice(0, 6)
      .map((s, i) => searchItem(s, 10000 - i));
  }
  return {
    explains: [],
    count: quotes.length,
    quotes,
    news: [],
    nav: [],
    lists: [],
    researchReports: [],
    totalTime: 12,
    timeTakenForQuotes: 411,
  };
}

function quote(symbols: string[], today: string) {
  const result = symbols.flatMap((sym) => {
    const s = SIM_SYMBOLS.get(sym);
    if (!s) return []; // unknown symbols are silently omitted
    const bars = dailyHistory(s.symbol, yesterday(today)).bars.filter((b) => !b.missing);
    const last = bars.at(-1);
    const prev = bars.at(-2);
    if (!last || !prev) return [];
    const change = last.close - prev.close;
    return [
      {
        symbol: s.symbol,
        currency: s.currency,
        exchange: s.yahooExchange,
        fullExchangeName: s.fullExchangeName,
        quoteType: s.quoteType,
        shortName: s.name.slice(0, 24),
        longName: s.name,
        marketState: "CLOSED",
        regularMarketPrice: f32(last.close),
        regularMarketChange: f32(change),
        regularMarketChangePercent: f32((change / prev.close) * 100),
        regularMarketPreviousClose: f32(prev.close),
        regularMarketOpen: f32(last.open),
        regularMarketDayHigh: f32(last.high),
        regularMarketDayLow: f32(last.low),
        regularMarketVolume: last.volume,
        regularMarketTime: last.time + 8 * 3600,
        exchangeDataDelayedBy: s.currency === "USD" ? 0 : 15,
      },
    ];
  });
  return { quoteResponse: { result, error: null } };
}

const SUMMARY_ONLY = new Set<FaultMode>(["crumb", "absurd_pe", "percent_scaled", "drift"]);

const CRUMB_SECRET = "sandbox-crumb-secret";
const randomToken = (n: number) => randomBytes(n).toString("base64url").slice(0, n);
/** The crumb of a session: bound to its cookie, 11 characters like the provider's. */
const crumbOf = (cookie: string) => createHmac("sha256", CRUMB_SECRET).update(cookie).digest("base64url").slice(0, 11);

/** The value of the `A3` session cookie a request sends. */
function cookieOf(req: IncomingMessage, wanted = "A3"): string | null {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === wanted) return rest.join("=");
  }
  return null;
}

/** Reads a form body (application/x-www-form-urlencoded). */
async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return new URLSearchParams(text);
}

/**
 * The EU consent pages (see the `consent` fault): the consent host sends the client to the form,
 * the form's post (its hidden fields and agree=agree) to the copy, the copy back to the page with
 * the consent cookie `GUC`. A step without what the previous one gave is refused (HTTP 400).
 */
async function consentPages(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  consents: Map<string, { csrf: string; done: string }>,
  control: SimulatorControl<FaultMode>,
): Promise<boolean> {
  const id = url.searchParams.get("sessionId") ?? "";
  const refuse = () => {
    res.writeHead(400, { "content-type": "text/plain" });
    res.end("Bad Request");
    return true;
  };
  if (url.pathname === "/consent") {
    const done = url.searchParams.get("done");
    if (!cookieOf(req, "GUCS") || !done) return refuse();
    const session = `3_cc-session_${randomToken(12)}`;
    consents.set(session, { csrf: randomToken(7), done });
    res.writeHead(302, { location: `https://consent.yahoo.com/v2/collectConsent?sessionId=${session}` });
    res.end();
    return true;
  }
  if (url.pathname === "/v2/collectConsent") {
    const consent = consents.get(id);
    if (!consent) return refuse();
    if (req.method === "GET") {
      // The page's own markup: the done address's "&" written as a character reference.
      const hidden = (name: string, value: string) =>
        `<input type="hidden" name="${name}" value="${value.replace(/&/g, "&amp;")}">`;
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(
        `<!doctype html><html><body><form method="post" action="/v2/collectConsent?sessionId=${id}">${[
          hidden("csrfToken", consent.csrf),
          hidden("sessionId", id),
          hidden("originalDoneUrl", consent.done),
          hidden("namespace", "yahoo"),
        ].join("")}<button name="agree" value="agree">Accept all</button></form></body></html>`,
      );
      return true;
    }
    const form = await formOf(req);
    if (
      form.get("csrfToken") !== consent.csrf ||
      form.get("sessionId") !== id ||
      !form.getAll("agree").includes("agree")
    )
      return refuse();
    control.count("consent agreed");
    res.writeHead(302, {
      location: `https://guce.yahoo.com/copyConsent?sessionId=${id}&lang=en-GB`,
      "set-cookie": `CFC=${randomToken(16)}; Max-Age=31557600; Domain=consent.yahoo.com; Path=/; Secure`,
    });
    res.end();
    return true;
  }
  if (url.pathname === "/copyConsent") {
    const consent = consents.get(id);
    if (!consent) return refuse();
    consents.delete(id);
    res.writeHead(302, {
      location: consent.done,
      "set-cookie": `GUC=AQEBCAF${randomToken(16)}; Max-Age=31557600; Domain=.yahoo.com; Path=/; Secure`,
    });
    res.end();
    return true;
  }
  return false;
}

export async function startYahooSim(opts: { port?: number; clock?: Clock } = {}): Promise<YahooSim> {
  const clock = opts.clock ?? systemClock;
  const today = () => clock.today();
  const control = new SimulatorControl<FaultMode>();
  /** Cookies this simulator has set (the provider knows its own sessions). */
  const cookies = new Set<string>();
  /** Consent sessions under way: id → the form's token and where the client goes back to. */
  const consents = new Map<string, { csrf: string; done: string }>();

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://sim");
    const path = url.pathname;
    if (await control.handle(req, res, url)) return;
    // The handshake: a finance.yahoo.com page sets the cookie, getcrumb turns it into a crumb.
    if (/^\/quote\/[^/]+\/?$/.test(path)) {
      control.count("quote page");
      const symbol = decodeURIComponent(path.split("/")[2] ?? "");
      if (!cookieOf(req, "GUC") && control.take(symbol, (mode) => mode === "consent")) {
        const done = `https://finance.yahoo.com${path}?guccounter=1`;
        res.writeHead(302, {
          location: `https://guce.yahoo.com/consent?brandType=eu&gcrumb=${randomToken(7)}&done=${encodeURIComponent(done)}`,
          "set-cookie": `GUCS=${randomToken(8)}; Max-Age=1800; Domain=.yahoo.com; Path=/; Secure`,
        });
        return res.end();
      }
      const cookie = `d=AQABBP${randomToken(16)}&S=AQAAA${randomToken(20)}`;
      cookies.add(cookie);
      res.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "set-cookie": `A3=${cookie}; Max-Age=31557600; Domain=.yahoo.com; Path=/; Secure; HttpOnly; SameSite=None`,
      });
      return res.end("<!doctype html><html><head><title>Yahoo Finance</title></head><body></body></html>");
    }
    if (await consentPages(req, res, url, consents, control)) return;
    if (path === "/v1/test/getcrumb") {
      control.count("getcrumb");
      const cookie = cookieOf(req);
      if (!cookie || !cookies.has(cookie)) return send(res, 401, envelope("finance", "Unauthorized", "Invalid Cookie"));
      res.writeHead(200, { "content-type": "text/plain;charset=utf-8" });
      return res.end(crumbOf(cookie));
    }
    const chartMatch = /^\/v8\/finance\/chart\/([^/]+)$/.exec(path);
    const summaryMatch = /^\/v10\/finance\/quoteSummary\/([^/]+)$/.exec(path);
    const seriesMatch = /^\/ws\/fundamentals-timeseries\/v1\/finance\/timeseries\/([^/]+)$/.exec(path);
    const pathSymbol = chartMatch?.[1] ?? summaryMatch?.[1] ?? seriesMatch?.[1];
    const symbol = pathSymbol
      ? decodeURIComponent(pathSymbol)
      : (url.searchParams.get("symbols") ?? url.searchParams.get("q") ?? "");
    const endpoint = summaryMatch ? "quoteSummary" : seriesMatch ? "timeseries" : (path.split("/")[3] ?? path);
    control.count(`${endpoint} ${symbol}`);
    // Faults of quoteSummary's own (a refused crumb, an absurd P/E) wait for a quoteSummary request.
    const taken = control.takeWithDate(
      symbol,
      (mode) =>
        mode !== "consent" &&
        (Boolean(summaryMatch) || !SUMMARY_ONLY.has(mode)) &&
        // A price glitch is the daily and longer charts' own.
        (!isPriceGlitch(mode) || (Boolean(chartMatch) && !isIntraday(url.searchParams.get("interval") ?? "1d"))),
    );
    const fault = taken?.mode;
    if (control.transport(fault, res)) return;
    if (fault === "timeout") {
      control.hold(res);
      return; // never answers; the client's timeout must fire
    }
    if (fault === "stall") {
      control.hold(res);
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"chart":{"result":[');
      return; // the body never completes; the client's deadline must cover reading it
    }
    if (fault === "500") {
      res.writeHead(500, { "content-type": "text/html" });
      return res.end("<html><body>Internal Server Error</body></html>");
    }
    if (fault === "ratelimit") {
      res.writeHead(429, { "content-type": "text/plain" });
      return res.end("Too Many Requests");
    }
    if (fault === "crumb" && summaryMatch) return send(res, 401, envelope("finance", "Unauthorized", "Invalid Crumb"));
    if (fault === "error200") {
      const root = chartMatch
        ? "chart"
        : summaryMatch
          ? "quoteSummary"
          : seriesMatch
            ? "timeseries"
            : path.includes("search")
              ? "finance"
              : "quoteResponse";
      return send(res, 200, envelope(root, "Internal Server Error", "Backend temporarily unavailable"));
    }
    if (fault === "malformed") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end('{"chart":{"result":[{"meta":');
    }
    if (chartMatch) {
      const pair = fault === "unknown" ? null : fxChart(symbol, url.searchParams, clock.now());
      if (pair) return send(res, 200, pair);
      const s = fault === "unknown" ? undefined : SIM_SYMBOLS.get(symbol);
      if (!s) return send(res, 404, envelope("chart", "Not Found", "No data found, symbol may be delisted"));
      if (isIntraday(url.searchParams.get("interval") ?? "1d")) {
        const meta = chartMeta(s, dailyHistory(s.symbol, yesterday(today())).bars, "", "");
        const answer = intradayChart(s, url.searchParams, Math.floor(clock.now().getTime() / 1000), meta);
        return send(res, answer.status, answer.body);
      }
      const glitch = fault && isPriceGlitch(fault) ? { mode: fault, date: taken?.date } : undefined;
      return send(res, 200, chart(s, url.searchParams, today(), glitch));
    }
    if (summaryMatch) {
      const cookie = cookieOf(req);
      const crumb = url.searchParams.get("crumb");
      if (!cookie || !cookies.has(cookie) || crumb !== crumbOf(cookie))
        return send(res, 401, envelope("finance", "Unauthorized", "Invalid Crumb"));
      const company = fault === "unknown" ? null : simCompany(symbol);
      if (!company)
        return send(res, 404, envelope("quoteSummary", "Not Found", `Quote not found for symbol: ${symbol}`));
      const modules = (url.searchParams.get("modules") ?? "price,summaryDetail").split(",").filter(Boolean);
      const result = quoteSummaryResult(company, modules, {
        formatted: url.searchParams.get("formatted") !== "false",
        absurdPe: fault === "absurd_pe",
        percentScaled: fault === "percent_scaled",
        drift: fault === "drift",
      });
      if (!result)
        return send(
          res,
          404,
          envelope(
            "quoteSummary",
            "Not Found",
            `No fundamentals data found for any of the summaryTypes=${modules.join(",")}`,
          ),
        );
      return send(res, 200, { quoteSummary: { result: [result], error: null } });
    }
    if (seriesMatch) {
      const types = (url.searchParams.get("type") ?? "").split(",").filter(Boolean);
      const p1 = Number(url.searchParams.get("period1") ?? 0);
      const p2 = Number(url.searchParams.get("period2") ?? Date.parse(`${today()}T23:59:59Z`) / 1000);
      // Unknown symbols answer 200 with meta-only entries, as the provider does.
      return send(res, 200, timeseriesResult(fault === "unknown" ? null : simCompany(symbol), symbol, types, p1, p2));
    }
    if (path === "/v1/finance/search") return send(res, 200, search(url.searchParams.get("q") ?? ""));
    if (path === "/v7/finance/quote") {
      const symbols = (url.searchParams.get("symbols") ?? "").split(",").filter(Boolean);
      return send(res, 200, quote(fault === "unknown" ? [] : symbols, today()));
    }
    send(res, 404, envelope("finance", "Not Found", `HTTP 404 Not Found: ${path}`));
  });
  return control.listen(server, opts.port);
}
