import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinnedClock } from "../../src/clock";
import { parseForm4 } from "../../src/domain/insider/form4";
import { loadConfig } from "../../src/env";
import { createCache } from "../../src/platform/cache";
import { DelayedProviderClient } from "../../src/providers/delayed/client";
import { DelayedFundamentalsClient } from "../../src/providers/delayed/fundamentals";
import { FredClient } from "../../src/providers/macro/fred";
import { newsProviders } from "../../src/providers/news/registry";
import { EdgarClient } from "../../src/providers/sec/edgar";
import { type Recording, type ReplayServer, startReplay } from "../../tools/sandbox/replay";

/**
 * Every provider client reading the answers the real services once gave (test/fixtures/recorded),
 * served at the provider's base URL by the replay server. The expected values are read from the
 * recordings here, never copied from the clients' output. (GET /fundamental on the recordings, and
 * the drift net, are in test/hardening.)
 */

let replay: ReplayServer;
const clock = pinnedClock("2026-02-20T15:00:00Z");
const base = (provider: string) => `${replay.url}/${provider}`;
type Json = Record<string, unknown>;

function recorded(provider: string, file: string): Recording {
  const r = replay.recordings.find((x) => x.provider === provider && x.file === file);
  if (!r) throw new Error(`no recording ${provider}/${file}`);
  return r;
}
const bodyOf = (provider: string, file: string) => recorded(provider, file).response.body as Json;

beforeAll(async () => {
  replay = await startReplay({ dir: fileURLToPath(new URL("../fixtures/recorded", import.meta.url)) });
});
afterAll(() => replay.close());

describe("the delayed provider's chart and search, replayed", () => {
  /** The recording's bars as the provider sent them: session dates in UTC, prices as the float32 values sent. */
  function recordedBars(file: string) {
    const result = ((bodyOf("delayed_provider", file).chart as Json).result as Json[])[0] as Json;
    const meta = result.meta as Json;
    const q = ((result.indicators as Json).quote as Json[])[0] as Record<string, (number | null)[]>;
    const adj = ((result.indicators as Json).adjclose as Json[] | undefined)?.[0]?.adjclose as
      | (number | null)[]
      | undefined;
    const stamps = result.timestamp as number[];
    return {
      meta,
      bars: stamps.flatMap((t, i) => {
        const close = q.close?.[i];
        if (close === null || close === undefined) return [];
        return [
          {
            date: new Date(t * 1000).toISOString().slice(0, 10),
            open: q.open?.[i] as number,
            high: q.high?.[i] as number,
            low: q.low?.[i] as number,
            close,
            adjClose: adj?.[i] ?? close,
            volume: q.volume?.[i],
          },
        ];
      }),
    };
  }
  const seven = (x: number | undefined) => Number((x as number).toPrecision(7));

  it.each([
    ["AAPL on Nasdaq", "chart-AAPL.json", "AAPL"],
    ["AAPL across a 4:1 split and a dividend", "chart-AAPL-2020-09-to-11-split-div.json", "AAPL"],
    ["a Xetra share", "chart-xetra.json", "WSU.DE"],
    ["a London share quoted in pence", "chart-london.json", "OCDO.L"],
    ["NVDA across a 4:1 split, its pre-split prices with five decimals", "chart-NVDA-2021-split-4-1.json", "NVDA"],
    ["a Hong Kong share in HKD, each session stamped at its 09:30 open", "chart-0700.HK-1d-1y.json", "0700.HK"],
  ])("reads %s: every bar at the provider's precision, its currency as sent", async (_what, file, symbol) => {
    const { meta, bars } = recordedBars(file);
    expect(bars.length).toBeGreaterThan(0);
    const client = new DelayedProviderClient({ baseUrl: base("delayed_provider"), timeoutMs: 2000, clock });
    const first = bars[0]?.date ?? "";
    const last = bars.at(-1)?.date ?? "";
    const h = await client.dailyHistory(symbol, first, last);
    expect(h.currency).toBe(meta.currency);
    expect(h.bars.map((b) => [b.date, b.volume])).toEqual(bars.map((b) => [b.date, b.volume]));
    // Every price reads back as the very float32 the provider sent, and so equals it to seven significant digits.
    const sent = bars.flatMap((b) => [b.open, b.high, b.low, b.close, b.adjClose]);
    const read = h.bars.flatMap((b) => [b.open, b.high, b.low, b.close, b.adjClose]);
    expect(read.map((x) => Math.fround(x))).toEqual(sent.map((x) => Math.fround(x)));
    expect(read.filter((x, i) => Math.abs(x - (sent[i] as number)) > 5e-7 * Math.abs(sent[i] as number))).toEqual([]);
  });

  it.each([
    [
      "EUR/USD in winter, stamped at 00:00 UTC",
      "chart-EURUSD=X-2020-01-01-to-03.json",
      "EURUSD=X",
      ["2020-01-01", "2020-01-03"],
      [
        ["2020-01-01", 1.1220826],
        ["2020-01-02", 1.1220826],
        ["2020-01-03", 1.1171438],
      ],
    ],
    [
      // Asked in September (meta gmtoffset 3600): July's bars at 23:00 UTC the day before, one all null.
      "USD/INR in summer, stamped at 23:00 UTC the day before, a day without a close",
      "chart-INR=X-with-null.json",
      "INR=X",
      ["2017-07-10", "2017-07-13"],
      [
        ["2017-07-10", 64.6117],
        ["2017-07-12", 64.5256],
        ["2017-07-13", 64.365],
      ],
    ],
  ])("reads a currency pair's daily closes: %s", async (_what, _file, pair, [from, to], expected) => {
    const client = new DelayedProviderClient({ baseUrl: base("delayed_provider"), timeoutMs: 2000, clock });
    const read = await client.pairCloses(pair, from as string, to as string);
    expect(read.closes).toEqual(expected.map(([date, close]) => ({ date, close })));
    expect(read.currency).toBe(pair === "INR=X" ? "INR" : "USD");
  });

  it("dates a session by the venue's day: a Sydney open at 23:00 UTC is the next day's session", async () => {
    // The recorded Xetra answer as a venue ten hours east of Berlin would stamp it: each session's
    // open (07:00 UTC in Frankfurt) at 10:00 local in Sydney, 23:00 UTC the evening before.
    const body = structuredClone(bodyOf("delayed_provider", "chart-xetra.json")) as {
      chart: { result: { meta: Json; timestamp: number[] }[] };
    };
    const result = body.chart.result[0] as { meta: Json; timestamp: number[] };
    const days = result.timestamp.map((t) => new Date(t * 1000).toISOString().slice(0, 10));
    result.meta.gmtoffset = 39600;
    result.timestamp = result.timestamp.map((t) => t - 8 * 3600);
    expect(new Date((result.timestamp[0] as number) * 1000).toISOString()).toBe("2023-08-03T23:00:00.000Z");
    const made = await fetch(`${replay.url}/__replay/variants`, {
      method: "POST",
      body: JSON.stringify({ provider: "delayed_provider", file: "chart-xetra.json", body }),
    });
    const { id } = (await made.json()) as { id: string };
    const client = new DelayedProviderClient({
      baseUrl: `${replay.url}/v/${id}/delayed_provider`,
      timeoutMs: 2000,
      clock,
    });
    // Asked from the first session day: the stamp of the evening before is in it.
    const h = await client.dailyHistory("WSU.DE", "2023-08-04", "2023-08-08");
    expect(h.bars.map((b) => b.date)).toEqual(days);
    expect(days).toEqual(["2023-08-04", "2023-08-07", "2023-08-08"]);
  });

  it("keeps the third decimal of a split-adjusted close the price hint would cut (NVDA, 2021)", async () => {
    const client = new DelayedProviderClient({ baseUrl: base("delayed_provider"), timeoutMs: 2000, clock });
    const h = await client.dailyHistory("NVDA", "2021-02-01", "2022-01-28");
    // 13.237000465393066 in the answer: 529.48 before the splits of 2021 (4:1) and 2024 (10:1), 13.237 after both.
    expect(h.bars[0]).toMatchObject({ date: "2021-02-01", close: 13.237 });
    expect(h.bars.find((b) => b.date === "2021-07-19")?.close).toBe(18.77975);
    expect(h.events?.splits).toEqual([{ date: "2021-07-20", numerator: 4, denominator: 1 }]);
    expect(h.bars).toHaveLength(252);
  });

  it("reads an intraday answer: every 5m bar at its own instant, trade prices as the float32 sent", async () => {
    const result = ((bodyOf("delayed_provider", "chart-IBM-5m-5d.json").chart as Json).result as Json[])[0] as Json;
    const q = ((result.indicators as Json).quote as Json[])[0] as Record<string, number[]>;
    const stamps = result.timestamp as number[];
    const client = new DelayedProviderClient({ baseUrl: base("delayed_provider"), timeoutMs: 2000, clock });
    const h = await client.intradayHistory(
      "IBM",
      "5m",
      new Date((stamps[0] as number) * 1000),
      new Date(((stamps.at(-1) as number) + 300) * 1000),
    );
    expect(h.currency).toBe("USD");
    expect(h.bars).toHaveLength(stamps.length);
    expect(h.bars.slice(0, 2).map((b) => [b.open, b.high, b.low, b.close].map((x) => Math.fround(x)))).toEqual(
      [0, 1].map((i) => [q.open?.[i], q.high?.[i], q.low?.[i], q.close?.[i]]),
    );
    expect(h.bars.slice(0, 2)).toEqual(
      [0, 1].map((i) => ({
        start: new Date((stamps[i] as number) * 1000),
        open: seven(q.open?.[i]),
        high: seven(q.high?.[i]),
        low: seven(q.low?.[i]),
        close: seven(q.close?.[i]),
        volume: q.volume?.[i],
      })),
    );
    // 288.3450012207031 is a trade at 288.345 on a share whose price hint is 2: its third decimal stays.
    expect(h.bars[0]?.open).toBe(288.345);
    expect(h.bars.at(-1)?.volume).toBe(0);
  });

  it("reads the London line's currency as pence (GBp), not pounds", () => {
    expect(recordedBars("chart-london.json").meta.currency).toBe("GBp");
  });

  it("reads a search: the recorded quotes' symbols and exchanges", async () => {
    const recordedQuotes = (bodyOf("delayed_provider", "search-AAPL.json").quotes as Json[]).filter(
      (q) => typeof q.symbol === "string",
    );
    const client = new DelayedProviderClient({ baseUrl: base("delayed_provider"), timeoutMs: 2000, clock });
    const hits = await client.search("AAPL");
    expect(hits.map((h) => [h.symbol, h.exchange])).toEqual(recordedQuotes.map((q) => [q.symbol, q.exchange]));
  });

  it("reads the London share's quoteSummary (two modules recorded apart) through the crumb handshake", async () => {
    const client = new DelayedFundamentalsClient({ baseUrl: base("delayed_provider"), timeoutMs: 2000, clock });
    const { value, drifts } = await client.summary("OCDO.L", ["price", "summaryDetail"]);
    const price = (
      (bodyOf("delayed_provider", "quoteSummary-london-OCDO.L.json").quoteSummary as Json).result as Json[]
    )[0]?.price as Json;
    expect((value.price as Json).currency).toBe(price.currency);
    expect((value.price as Json).regularMarketPrice).toBe(price.regularMarketPrice);
    expect(drifts).toEqual([]);
  });
});

describe("SEC EDGAR, replayed", () => {
  const edgar = () =>
    new EdgarClient({
      baseUrl: base("sec_edgar"),
      dataBaseUrl: base("sec_edgar"),
      userAgent: "market-data-service tests@example.com",
      cache: createCache(loadConfig({})),
      timeoutMs: 2000,
      clock,
    });

  it("finds a company's CIK in the recorded company_tickers.json", async () => {
    const entries = Object.values(bodyOf("sec_edgar", "company-tickers.json")) as { ticker: string; cik_str: number }[];
    const apple = entries.find((e) => e.ticker === "AAPL");
    expect(apple).toBeDefined();
    expect(await edgar().cikOf("AAPL")).toBe(apple?.cik_str);
  });

  it("lists the recorded submissions' Form 4 filings, newest first, each with its raw XML address", async () => {
    const recent = (bodyOf("sec_edgar", "submissions-0001318605.json").filings as Json).recent as Record<
      string,
      string[]
    >;
    const expected = (recent.form ?? []).flatMap((form, i) =>
      form === "4" || form === "4/A"
        ? [{ accession: recent.accessionNumber?.[i], filingDate: recent.filingDate?.[i] }]
        : [],
    );
    expect(expected.length).toBeGreaterThan(0);
    const refs = await edgar().recentForm4(1318605);
    expect(refs.map((r) => ({ accession: r.accession, filingDate: r.filingDate }))).toEqual(expected);
    for (const r of refs) expect(r.xmlUrl).not.toContain("xslF345X0");
  });

  it.each([["form4-374water-scwo-2025-04-30.json"], ["form4-snow-scarpelli-2022-12-13.json"]])(
    "parses the recorded Form 4 %s: every non-derivative transaction's code, shares and price",
    (file) => {
      const xml = recorded("sec_edgar", file).response.body as string;
      // The recording's own values, read with a pattern rather than the parser under test.
      const blocks = [...xml.matchAll(/<nonDerivativeTransaction>([\s\S]*?)<\/nonDerivativeTransaction>/g)].map(
        (m) => m[1] ?? "",
      );
      const leafValue = (block: string, tag: string) =>
        new RegExp(`<${tag}>\\s*(?:<value>([^<]*)</value>)?`).exec(block)?.[1]?.trim() ?? null;
      const expected = blocks.map((b) => ({
        code: /<transactionCode>([^<]+)<\/transactionCode>/.exec(b)?.[1] ?? null,
        shares: Number(leafValue(b, "transactionShares")),
        price: leafValue(b, "transactionPricePerShare") ? Number(leafValue(b, "transactionPricePerShare")) : null,
      }));
      expect(expected.length).toBeGreaterThan(0);
      const doc = parseForm4(xml);
      const parsed = doc.transactions.filter((t) => t.table === "non_derivative");
      expect(parsed.map((t) => ({ code: t.code, shares: t.shares, price: t.price }))).toEqual(expected);
    },
  );
});

describe("FRED, replayed", () => {
  const fredAt = (url: string) =>
    new FredClient({ baseUrl: url, apiKey: "0123456789abcdefghijklmnopqrstuv", timeoutMs: 2000, clock });
  it("takes the newest real observation of DGS10, skipping the holidays' '.'", async () => {
    const observations = bodyOf("macro_provider", "observations-DGS10.json").observations as {
      date: string;
      value: string;
    }[];
    expect(observations.some((o) => o.value === ".")).toBe(true);
    const newest = observations.filter((o) => o.value !== ".").sort((a, b) => (a.date < b.date ? 1 : -1))[0];
    const fred = fredAt(base("macro_provider"));
    expect(await fred.latestObservation("DGS10")).toEqual({ date: newest?.date, value: newest?.value, drifts: [] });
  });

  it("leaves out an observation of another shape, reports it, and still takes the newest good one", async () => {
    const recording = recorded("macro_provider", "observations-DGS10.json");
    const body = structuredClone(recording.response.body) as { observations: Json[] };
    const good = body.observations
      .filter((o) => o.value !== ".")
      .sort((a, b) => (String(a.date) < String(b.date) ? 1 : -1));
    // The newest one's value as a number, the next one's date gone: both are lost, the third is the answer.
    const [newest, next, third] = good;
    if (!newest || !next || !third) throw new Error("the recording has fewer than three values");
    newest.value = Number(newest.value);
    delete next.date;
    const res = await fetch(`${replay.url}/__replay/variants`, {
      method: "POST",
      body: JSON.stringify({ provider: "macro_provider", file: "observations-DGS10.json", body }),
    });
    const { id } = (await res.json()) as { id: string };
    const fred = fredAt(`${replay.url}/v/${id}/macro_provider`);
    const o = await fred.latestObservation("DGS10");
    expect({ date: o.date, value: o.value }).toEqual({ date: third.date, value: third.value });
    expect(o.drifts.map((d) => [d.path, d.expected, d.seen]).sort()).toEqual([
      ["observations[].date", "a value", "absent"],
      ["observations[].value", "a string", "a number"],
    ]);
  });

  it("says what FRED refused, in its own words", async () => {
    const fred = fredAt(base("macro_provider"));
    await expect(fred.latestObservation("bad_series_id")).rejects.toMatchObject({ provider: "macro_provider" });
  });
});

describe("the news providers, replayed", () => {
  const config = () =>
    loadConfig({
      NEWS_YAHOO_RSS_BASE_URL: base("yahoo_finance_rss"),
      NEWS_GOOGLE_RSS_BASE_URL: base("google_news_rss"),
      NEWS_FINNHUB_BASE_URL: base("finnhub"),
      NEWS_MARKETAUX_BASE_URL: base("marketaux"),
      NEWS_NEWSAPI_BASE_URL: base("newsapi"),
      NEWS_ALPHAVANTAGE_BASE_URL: base("alpha_vantage"),
      NEWS_GDELT_BASE_URL: base("gdelt"),
      FINNHUB_API_KEY: "key",
      MARKETAUX_API_KEY: "key",
      NEWSAPI_API_KEY: "key",
      ALPHAVANTAGE_API_KEY: "key",
    });
  const provider = (name: string) => {
    const p = newsProviders(config(), { remainingMs: () => 5000 } as never, clock).find((x) => x.name === name);
    if (!p) throw new Error(name);
    return p;
  };
  const query = (ticker: string, company: string) => ({
    ticker,
    company,
    language: "en",
    limit: 20,
    from: "2019-01-01",
    to: "2026-02-20",
  });

  it.each([
    [
      "yahoo_finance_rss",
      "tsla-headline.json",
      "TSLA",
      "Tesla",
      (b: unknown) => [...String(b).matchAll(/<item>[\s\S]*?<link>([^<]+)<\/link>/g)].map((m) => m[1]),
    ],
    [
      "google_news_rss",
      "apple-search.json",
      "AAPL",
      "Apple",
      (b: unknown) => [...String(b).matchAll(/<item><title>[\s\S]*?<link>([^<]+)<\/link>/g)].map((m) => m[1]),
    ],
    ["finnhub", "aapl-company-news-2021-03.json", "AAPL", "Apple", (b: unknown) => (b as Json[]).map((a) => a.url)],
    [
      "marketaux",
      "news-all-2022-05-02.json",
      "AAPL",
      "Apple",
      (b: unknown) => ((b as Json).data as Json[]).map((a) => a.url),
    ],
    [
      "newsapi",
      "everything-bitcoin-2019.json",
      "AAPL",
      "Apple",
      (b: unknown) => ((b as Json).articles as Json[]).map((a) => a.url),
    ],
    [
      "alpha_vantage",
      "news-sentiment-2024-01-03.json",
      "AAPL",
      "Apple",
      (b: unknown) => ((b as Json).feed as Json[]).map((a) => a.url),
    ],
    [
      "gdelt",
      "artlist-vizhinjam-2024.json",
      "AAPL",
      "Apple",
      (b: unknown) => ((b as Json).articles as Json[]).map((a) => a.url),
    ],
  ])("%s reads the recorded articles: each one, with its address", async (name, file, ticker, company, urls) => {
    const expected = urls(recorded(name, file).response.body) as string[];
    expect(expected.length).toBeGreaterThan(0);
    const articles = await provider(name).fetch(query(ticker, company));
    expect(new Set(articles.map((a) => a.url))).toEqual(new Set(expected));
    for (const a of articles) expect(a.published_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });
});
