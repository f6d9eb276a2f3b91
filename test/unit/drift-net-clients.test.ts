import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinnedClock } from "../../src/clock";
import type { SchemaDrift } from "../../src/domain/drift";
import { leafPaths, requiredPaths, type WireNode } from "../../src/domain/wire-schema";
import { loadConfig } from "../../src/env";
import { MemoryCache } from "../../src/platform/cache/memory";
import { CHART } from "../../src/providers/delayed/chart-schema";
import { DelayedProviderClient } from "../../src/providers/delayed/client";
import { DriftJournal } from "../../src/providers/drift-journal";
import { ProviderError } from "../../src/providers/errors";
import { ALPHAVANTAGE_ITEM } from "../../src/providers/news/alphavantage";
import { FINNHUB_ITEM } from "../../src/providers/news/finnhub";
import { GDELT_ITEM } from "../../src/providers/news/gdelt";
import { MARKETAUX_ITEM } from "../../src/providers/news/marketaux";
import { NEWSAPI_ITEM } from "../../src/providers/news/newsapi";
import { newsProviders } from "../../src/providers/news/registry";
import { EdgarClient, SUBMISSIONS, TICKER_ENTRY } from "../../src/providers/sec/edgar";
import { type Recording, type ReplayServer, startReplay } from "../../tools/sandbox/replay";
import { MUTATION_KINDS, mutated } from "../helpers/mutations";

/**
 * The drift net of the clients outside the fundamentals chain (that one runs through the routes, in
 * test/hardening/drift-net.net.ts): for every JSON recording of the chart, EDGAR and the news
 * providers, and every field the client reads, the recording is replayed with the field removed,
 * given another type and renamed. Each run must answer (only the fields listed in ESSENTIAL may
 * cost the answer, as a bad_response that says so), every output the field does not feed (the
 * FEEDS tables: what the provider documents each field to mean) must equal the unmutated run's,
 * and the drift must be reported to the journal: always for a value of another type, and for a
 * missing field the client needs or the provider always sends.
 */

let replay: ReplayServer;
const clock = pinnedClock("2026-02-20T15:00:00Z");
type Json = Record<string, unknown>;
type Outputs = Map<string, string>;

beforeAll(async () => {
  replay = await startReplay({ dir: fileURLToPath(new URL("../fixtures/recorded", import.meta.url)) });
});
afterAll(() => replay.close());

function recording(provider: string, file: string): Recording {
  const r = replay.recordings.find((x) => x.provider === provider && x.file === file);
  if (!r) throw new Error(`no recording ${provider}/${file}`);
  return r;
}

async function variant(provider: string, file: string, body: unknown): Promise<string> {
  const res = await fetch(`${replay.url}/__replay/variants`, {
    method: "POST",
    body: JSON.stringify({ provider, file, body }),
  });
  return `${replay.url}/v/${((await res.json()) as { id: string }).id}/${provider}`;
}

/** Any value as flat keys (`bars.3.close`), for comparing two runs output by output. */
function flatten(v: unknown, prefix: string, out: Outputs = new Map()): Outputs {
  if (Array.isArray(v) && v.every((x) => typeof x !== "object" || x === null)) out.set(prefix, JSON.stringify(v));
  else if (Array.isArray(v)) for (const [i, x] of v.entries()) flatten(x, `${prefix}.${i}`, out);
  else if (typeof v === "object" && v !== null)
    for (const [k, x] of Object.entries(v)) flatten(x, prefix ? `${prefix}.${k}` : k, out);
  else out.set(prefix, JSON.stringify(v));
  return out;
}

/** `bars.*.close` as a pattern of flat keys (`*` one segment, a trailing `**` anything below). */
const pattern = (glob: string) =>
  new RegExp(
    `^${glob
      .split(".")
      .map((seg) => (seg === "**" ? "\u0000" : seg === "*" ? "[^.]+" : seg.replace(/[\\^$+?()[\]{}|]/g, "\\$&")))
      .join("\\.")
      .replace("\\.\u0000", "(\\..*)?")}$`,
  );

interface Target {
  provider: string;
  file: string;
  /** The schema the client reads, and where its paths start (`[]`: each item of the list at `root`). */
  node: WireNode;
  prefix: string;
  root: (body: unknown) => unknown;
  /** One run of the client on a base URL: its outputs, flattened. */
  run: (base: string, sink: DriftJournal) => Promise<unknown>;
  /** The outputs each field feeds (globs); a field not listed feeds nothing the run returns. */
  feeds: Record<string, readonly string[]>;
  /** Fields without which the provider's answer cannot be read at all (the answer fails, said). */
  essential?: readonly string[];
}

const delayed = (base: string, sink: DriftJournal) =>
  new DelayedProviderClient({ baseUrl: base, timeoutMs: 2000, clock, drifts: sink });

/** Intraday bars over the recording's own window (their prices keep 7 digits: the price hint feeds none). */
function intradayTarget(file: string, symbol: string): Target {
  const stamps = (
    ((recording("delayed_provider", file).response.body as Json).chart as Json).result as { timestamp: number[] }[]
  )[0]?.timestamp ?? [0];
  return {
    provider: "delayed_provider",
    file,
    node: CHART,
    prefix: "",
    root: (b) => b,
    run: async (base, sink) => ({
      intraday: await delayed(base, sink).intradayHistory(
        symbol,
        "5m",
        new Date((stamps[0] ?? 0) * 1000),
        new Date(((stamps.at(-1) ?? 0) + 300) * 1000),
      ),
    }),
    feeds: {
      "chart.result[].meta.currency": ["intraday.currency"],
      "chart.result[].meta.symbol": ["intraday.symbol"],
      "chart.result[].timestamp": ["intraday.bars.**"],
      "chart.result[].indicators.quote[].close": ["intraday.bars.**"],
      "chart.result[].indicators.quote[].open": ["intraday.bars.*.open"],
      "chart.result[].indicators.quote[].high": ["intraday.bars.*.high"],
      "chart.result[].indicators.quote[].low": ["intraday.bars.*.low"],
      "chart.result[].indicators.quote[].volume": ["intraday.bars.*.volume"],
    },
  };
}

/** History over the recording's own window, and the quote the same recording answers. */
function chartTarget(file: string, symbol: string): Target {
  const stamps = (
    ((recording("delayed_provider", file).response.body as Json).chart as Json).result as { timestamp: number[] }[]
  )[0]?.timestamp ?? [0];
  const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
  const prices = ["open", "high", "low", "close"].map((c) => `history.bars.*.${c}`);
  return {
    provider: "delayed_provider",
    file,
    node: CHART,
    prefix: "",
    root: (b) => b,
    run: async (base, sink) => {
      const client = delayed(base, sink);
      return {
        history: await client.dailyHistory(symbol, day(stamps[0] ?? 0), day(stamps.at(-1) ?? 0)),
        quote: await client.quote(symbol).catch((e: unknown) => `failed: ${String(e)}`),
      };
    },
    feeds: {
      "chart.result[].meta.currency": ["history.currency", "quote.currency"],
      "chart.result[].meta.exchangeName": ["history.exchange", "quote.exchange"],
      "chart.result[].meta.priceHint": [...prices, "quote.**"],
      "chart.result[].meta.regularMarketPrice": ["quote.price"],
      "chart.result[].meta.regularMarketTime": ["quote.**"],
      "chart.result[].meta.regularMarketDayHigh": ["quote.high"],
      "chart.result[].meta.regularMarketDayLow": ["quote.low"],
      "chart.result[].meta.regularMarketVolume": ["quote.volume"],
      "chart.result[].meta.longName": ["quote.name"],
      "chart.result[].meta.shortName": ["quote.name"],
      "chart.result[].timestamp": ["history.bars.**", "quote.**"],
      "chart.result[].indicators.quote[].close": ["history.bars.**", "quote.**"],
      "chart.result[].indicators.quote[].open": ["history.bars.*.open", "quote.open"],
      "chart.result[].indicators.quote[].high": ["history.bars.*.high", "quote.high"],
      "chart.result[].indicators.quote[].low": ["history.bars.*.low", "quote.low"],
      "chart.result[].indicators.quote[].volume": ["history.bars.*.volume", "quote.volume"],
      "chart.result[].indicators.adjclose[].adjclose": ["history.bars.*.adjClose"],
      // An event that cannot be placed is left out: the list of its kind shifts.
      "chart.result[].events.dividends.{}.amount": ["history.events.dividends.**"],
      "chart.result[].events.dividends.{}.date": ["history.events.dividends.**"],
      "chart.result[].events.splits.{}.date": ["history.events.splits.**"],
      "chart.result[].events.splits.{}.numerator": ["history.events.splits.**"],
      "chart.result[].events.splits.{}.denominator": ["history.events.splits.**"],
    },
  };
}

/** A cache of its own for each run: company_tickers.json is kept a day, and each run must read its own. */
const edgar = (base: string, sink: DriftJournal) =>
  new EdgarClient({
    baseUrl: base,
    dataBaseUrl: base,
    userAgent: "market-data-service tests@example.com",
    cache: new MemoryCache(10),
    timeoutMs: 2000,
    clock,
    drifts: sink,
  });

const ARTICLE_SET = ["articles.**"];
function newsTarget(
  provider: string,
  file: string,
  node: WireNode,
  root: (b: unknown) => unknown,
  feeds: Record<string, readonly string[]>,
): Target {
  const config = loadConfig({
    FINNHUB_API_KEY: "key",
    MARKETAUX_API_KEY: "key",
    NEWSAPI_API_KEY: "key",
    ALPHAVANTAGE_API_KEY: "key",
  });
  const URL_KEYS: Record<string, string> = {
    finnhub: "NEWS_FINNHUB_BASE_URL",
    marketaux: "NEWS_MARKETAUX_BASE_URL",
    newsapi: "NEWS_NEWSAPI_BASE_URL",
    alpha_vantage: "NEWS_ALPHAVANTAGE_BASE_URL",
    gdelt: "NEWS_GDELT_BASE_URL",
  };
  const required = requiredPaths(node, "[]");
  return {
    provider,
    file,
    node,
    prefix: "[]",
    root,
    run: async (base, sink) => {
      const c = { ...config, [URL_KEYS[provider] as string]: base };
      const client = newsProviders(c, { remainingMs: () => 5000 } as never, clock, sink).find(
        (p) => p.name === provider,
      );
      if (!client) throw new Error(provider);
      const articles = await client.fetch({
        ticker: "AAPL",
        company: "Apple",
        language: "en",
        limit: 100,
        from: "2019-01-01",
        to: "2026-02-20",
      });
      // Keyed by address: an article left out is a change of the set, not of every later position.
      return { articles: Object.fromEntries(articles.map((a) => [a.url.replaceAll(".", "%2E"), a])) };
    },
    feeds: { ...Object.fromEntries(required.map((p) => [p, ARTICLE_SET])), ...feeds },
  };
}

const TARGETS: Target[] = [];
function targets(): Target[] {
  if (TARGETS.length) return TARGETS;
  TARGETS.push(
    intradayTarget("chart-IBM-5m-5d.json", "IBM"),
    chartTarget("chart-AAPL.json", "AAPL"),
    chartTarget("chart-AAPL-2020-09-to-11-split-div.json", "AAPL"),
    chartTarget("chart-xetra.json", "WSU.DE"),
    chartTarget("chart-london.json", "OCDO.L"),
    {
      provider: "sec_edgar",
      file: "company-tickers.json",
      node: TICKER_ENTRY,
      prefix: "{}",
      root: (b) => b,
      run: async (base, sink) => ({ aapl: await edgar(base, sink).cikOf("AAPL") }),
      feeds: {},
      // The file is nothing but these two fields: without either in every entry nothing is left to read.
      essential: ["{}.cik_str", "{}.ticker"],
    },
    {
      provider: "sec_edgar",
      file: "submissions-0001318605.json",
      node: SUBMISSIONS,
      prefix: "",
      root: (b) => b,
      run: async (base, sink) => ({ filings: await edgar(base, sink).recentForm4(1318605) }),
      feeds: { "filings.recent.reportDate": ["filings.*.reportDate"], "filings.recent.filingDate": ["filings.**"] },
      // Without the forms, the accession numbers or the documents no Form 4 can be named or fetched.
      essential: ["filings.recent.form", "filings.recent.accessionNumber", "filings.recent.primaryDocument"],
    },
    newsTarget("finnhub", "aapl-company-news-2021-03.json", FINNHUB_ITEM, (b) => b, {
      "[].image": ["articles.*.image_url"],
      "[].related": ["articles.*.related_tickers"],
      "[].source": ["articles.*.source"],
      "[].summary": ["articles.*.summary", "articles.*.language"],
    }),
    newsTarget("marketaux", "news-all-2022-05-02.json", MARKETAUX_ITEM, (b) => (b as Json).data, {
      "[].description": ["articles.*.summary", "articles.*.language"],
      "[].snippet": ["articles.*.summary", "articles.*.language"],
      "[].image_url": ["articles.*.image_url"],
      "[].language": ["articles.*.language"],
      "[].source": ["articles.*.source"],
      "[].entities": ["articles.*.related_tickers"],
      "[].entities[].symbol": ["articles.*.related_tickers"],
    }),
    newsTarget("newsapi", "everything-bitcoin-2019.json", NEWSAPI_ITEM, (b) => (b as Json).articles, {
      "[].source": ["articles.*.source"],
      "[].source.name": ["articles.*.source"],
      "[].author": ["articles.*.author"],
      "[].description": ["articles.*.summary"],
      "[].urlToImage": ["articles.*.image_url"],
    }),
    newsTarget("alpha_vantage", "news-sentiment-2024-01-03.json", ALPHAVANTAGE_ITEM, (b) => (b as Json).feed, {
      "[].authors": ["articles.*.author"],
      "[].summary": ["articles.*.summary", "articles.*.language"],
      "[].banner_image": ["articles.*.image_url"],
      "[].source": ["articles.*.source"],
      "[].ticker_sentiment": ["articles.*.related_tickers"],
      "[].ticker_sentiment[].ticker": ["articles.*.related_tickers"],
    }),
    newsTarget("gdelt", "artlist-vizhinjam-2024.json", GDELT_ITEM, (b) => (b as Json).articles, {
      "[].socialimage": ["articles.*.image_url"],
      "[].domain": ["articles.*.source"],
      "[].language": ["articles.*.language"],
    }),
  );
  return TARGETS;
}

const tally = {
  mutations: 0,
  essential: 0,
  reported: 0,
  silent: 0,
  fields: new Set<string>(),
  recordings: new Set<string>(),
};

async function runOf(t: Target, base: string): Promise<{ out: Outputs | null; error: unknown; drifts: SchemaDrift[] }> {
  const sink = new DriftJournal();
  try {
    // Addresses built on the base URL (EDGAR's documents) compare without it: a variant has its own.
    const out = flatten(JSON.parse(JSON.stringify(await t.run(base, sink)).replaceAll(base, "<base>")), "");
    return { out, error: null, drifts: sink.take().map((e) => e.drift) };
  } catch (error) {
    return { out: null, error, drifts: sink.take().map((e) => e.drift) };
  }
}

describe("the drift net of the chart, EDGAR and the news clients", () => {
  // Built lazily: the recordings are read once the replay server has started.
  const cases = () => targets().flatMap((t) => leafPaths(t.node, t.prefix).map((path) => ({ t, path })));

  it("covers every field each client reads, in every JSON recording of it", async () => {
    for (const { t, path } of cases()) {
      const base = await runOf(t, `${replay.url}/${t.provider}`);
      expect(base.error, `${t.file} unmutated`).toBeNull();
      expect(base.drifts, `${t.file} unmutated: no drift in a real answer`).toEqual([]);
      const before = base.out as Outputs;
      const required = new Set(requiredPaths(t.node, t.prefix));
      const allowed = (t.feeds[path] ?? []).map(pattern);
      for (const kind of MUTATION_KINDS) {
        const body = mutated(recording(t.provider, t.file).response.body, t.root, path, kind);
        if (body === null) continue; // the recording does not carry this field
        tally.fields.add(`${t.file}:${path}`);
        tally.recordings.add(t.file);
        tally.mutations += 1;
        const label = `${kind} ${t.file} ${path}`;
        const r = await runOf(t, await variant(t.provider, t.file, body));
        const drifted = r.drifts.some((d) => d.path === path || d.path.startsWith(`${path}[]`));
        if (kind === "retyped" || required.has(path)) expect(drifted, `${label}: drift reported`).toBe(true);
        if (drifted) tally.reported += 1;
        else tally.silent += 1;
        if (t.essential?.includes(path)) {
          // The answer cannot be read: a failure of the provider's answer that says so, never a crash.
          expect(r.error, label).toBeInstanceOf(ProviderError);
          expect((r.error as ProviderError).failure, label).toBe("bad_response");
          tally.essential += 1;
          continue;
        }
        expect(r.error, label).toBeNull();
        const after = r.out as Outputs;
        const keys = new Set([...before.keys(), ...after.keys()]);
        const unexpected = [...keys].filter((k) => before.get(k) !== after.get(k) && !allowed.some((p) => p.test(k)));
        expect(unexpected.slice(0, 5), `${label}: outputs the field does not feed changed`).toEqual([]);
      }
    }
    console.log(
      `client drift net: ${tally.mutations} mutations of ${tally.fields.size} fields in ${tally.recordings.size} recordings: 0 crashes; answered ${tally.mutations - tally.essential}, refused as unreadable (essential fields) ${tally.essential}; drift reported ${tally.reported}, silent (an optional field gone) ${tally.silent}`,
    );
    expect(tally.recordings.size).toBe(targets().length);
    expect(tally.mutations).toBeGreaterThan(150);
  }, 120_000);
});
