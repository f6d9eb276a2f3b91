import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq, gte, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDailyBars } from "../../src/db/repositories/prices";
import { claimResend, pruneRuns } from "../../src/db/repositories/screen-runs";
import { indicatorSnapshots, listings, pricesDaily, pricesIntraday, screenRows } from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import { resample } from "../../src/domain/bars";
import { toDecimalString } from "../../src/domain/decimal";
import { INDICATORS, indicatorSpec, withDefaults } from "../../src/domain/indicators/catalogue";
import { HISTORY_BARS } from "../../src/domain/indicators/history";
import { seriesOfBars } from "../../src/domain/indicators/series";
import { isSnapshotted, paramsKey, SNAPSHOT_SET } from "../../src/domain/indicators/snapshots";
import { SCREEN_RUNS_PER_DAY } from "../../src/domain/screen-runs";
import worker from "../../src/index";
import type { StoredTicker } from "../../src/routes/database/schema";
import type { EodAnswer, IngestAnswer } from "../../src/routes/eod/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import type {
  BatchAnswer,
  ChartAnswer,
  IndicatorCatalogue,
  IndicatorResult,
  MultiResult,
  ScreenAnswer,
} from "../../src/routes/technical/schema";
import type { ConditionsAnswer } from "../../src/services/technical/screen-conditions";
import { type QueuedScreen, SCREEN_QUEUE_NAME } from "../../src/services/technical/screen-runs";
import { READ_ONLY_KEY } from "../helpers/keys";
import { forgetCached, resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const deps = buildDeps(env);
afterAll(() => deps.close());

const listingId = async (ticker: string) =>
  Number((await deps.db.select({ id: listings.id }).from(listings).where(eq(listings.ticker, ticker)))[0]?.id);

beforeAll(async () => {
  await resetTickers("AAPL", "MSFT", "DIS", "HD");
  const res = await call<IngestAnswer>("/historical/ingest", { method: "POST", body: { tickers: ["AAPL", "MSFT"] } });
  expect(res.body.results.map((r) => r.status)).toEqual(["ingested", "ingested"]);
});

describe("GET /technical/{ticker}", () => {
  it("answers MACD as three series aligned on the bar timestamps", async () => {
    // Its background work settled: the answer's cache write comes after the answer.
    const res = await call<IndicatorResult>("/technical/aapl?indicator=macd", { settleBackground: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ticker: "AAPL",
      indicator: "macd",
      resolution: "1D",
      category: "momentum",
      params: { fast: 12, slow: 26, signal: 9 },
      count: 500,
      cached: false,
    });
    const series = res.body.series;
    expect(series.map((s) => s.name)).toEqual(["macd", "signal", "histogram"]);
    // The timestamps are the bars': the last 500 stored sessions.
    expect(res.body.from_date).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(res.body.to_date).toMatch(/^\d{4}-\d{2}-\d{2}/);
    const from = res.body.from_date?.slice(0, 10);
    const to = res.body.to_date?.slice(0, 10);
    const eod = await call<EodAnswer>(`/eod/AAPL?from=${from}&to=${to}`);
    const dates = eod.body.data.map((b) => `${b.Date}T00:00:00Z`);
    for (const s of series) {
      expect(s.values.map((p) => p.t)).toEqual(dates);
      // Computed over the ten stored years: TA-Lib's warm-up lies before the window, every bar has a value.
      expect(s.values.every((p) => typeof p.v === "string" && /^-?\d+(\.\d+)?$/.test(p.v))).toBe(true);
    }
    const [line, signal, hist] = series;
    for (let i = 0; i < 500; i++) {
      const expected = Number(line?.values[i]?.v) - Number(signal?.values[i]?.v);
      expect(Math.abs(Number(hist?.values[i]?.v) - expected)).toBeLessThan(2e-10);
    }
    const again = await call<IndicatorResult>("/technical/AAPL?indicator=macd");
    expect(again.body.cached).toBe(true);
    expect(again.body.series).toEqual(series);
  });

  it("refuses VWAP on daily bars and an unknown indicator with 400", async () => {
    const vwap = await call<ErrorBody>("/technical/AAPL?indicator=vwap");
    expect(vwap.status).toBe(400);
    expect(vwap.body.message).toContain("intraday");
    const unknown = await call<ErrorBody>("/technical/AAPL?indicator=foo");
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("Unknown indicator 'foo'");
    expect((await call("/technical/AAPL?indicator=sma&period=0")).status).toBe(400);
    expect((await call("/technical/AAPL?resolution=5D")).status).toBe(400);
  });

  it("answers 404 for a ticker without stored prices and 422 when the bars are too few", async () => {
    const none = await call<ErrorBody>("/technical/DIS?indicator=rsi");
    expect(none.status).toBe(404);
    expect(none.body.message).toBe(
      "No 1D prices stored for DIS: ingest them through GET /eod/DIS or POST /historical/ingest",
    );
    // A window shorter than the indicator needs answers: the history is long enough.
    const short = await call<IndicatorResult>("/technical/AAPL?indicator=sma&period=400&limit=300");
    expect(short.status).toBe(200);
    expect(short.body.count).toBe(300);
    expect(short.body.series[0]?.values.every((p) => p.v !== null)).toBe(true);
    // 422 only when the stored history itself is too short: ten years are about 121 months.
    const months = resample(await readDailyBars(deps.db, await listingId("AAPL")), "monthly").length;
    const few = await call<ErrorBody>("/technical/AAPL?indicator=sma&period=400&resolution=1M");
    expect(few.status).toBe(422);
    expect(few.body.message).toBe(`sma needs at least 400 bars; ${months} are stored`);
    expect(few.body.details).toEqual([{ path: "bars", message: `required 400, stored ${months}` }]);
  });

  it("computes on weekly bars aggregated as /eod aggregates them", async () => {
    const res = await call<IndicatorResult>("/technical/AAPL?indicator=sma&period=4&resolution=1W");
    expect(res.status).toBe(200);
    const weekly = (await call<EodAnswer>("/eod/AAPL?period=weekly")).body.data;
    const last4 = weekly.slice(-4).map((b) => b.Close);
    const values = res.body.series[0]?.values ?? [];
    expect(values.at(-1)?.t).toBe(`${weekly.at(-1)?.Date}T00:00:00Z`);
    expect(Number(values.at(-1)?.v)).toBeCloseTo(last4.reduce((a, b) => a + b, 0) / 4, 9);
  });

  it("computes VWAP on the 1-minute candles saved by the stream", async () => {
    const id = await listingId("HD");
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const candles = [
      { minute: new Date(`${day}T14:30:00Z`), open: "10", high: "10", low: "8", close: "9", volume: 100 },
      { minute: new Date(`${day}T14:31:00Z`), open: "9", high: "11", low: "9", close: "10", volume: 300 },
      { minute: new Date(`${day}T14:32:00Z`), open: "10", high: "12", low: "9", close: "12", volume: 100 },
    ];
    await deps.db
      .insert(pricesIntraday)
      .values(candles.map((c) => ({ ...c, listingId: id, source: "stream_provider" })))
      .onConflictDoNothing();
    const res = await call<IndicatorResult>("/technical/HD?indicator=vwap&resolution=1min");
    expect(res.status).toBe(200);
    const values = res.body.series[0]?.values;
    // (9·100 + 10·300 + 11·100) / 500 = 10
    expect(values).toEqual([
      { t: `${day}T14:30:00Z`, v: "9" },
      { t: `${day}T14:31:00Z`, v: "9.75" },
      { t: `${day}T14:32:00Z`, v: "10" },
    ]);
    // The last candle alone is still computed over the day's candles before it.
    const last = await call<IndicatorResult>("/technical/HD?indicator=vwap&resolution=1min&limit=1");
    expect(last.body.series[0]?.values).toEqual([{ t: `${day}T14:32:00Z`, v: "10" }]);
    await deps.db.delete(pricesIntraday).where(eq(pricesIntraday.listingId, id));
  });

  it("drops its cached answers when an ingestion writes prices of the ticker", async () => {
    await forgetCached("technical:MSFT:*");
    const first = await call<IndicatorResult>("/technical/MSFT?indicator=ema", { settleBackground: true });
    expect(first.body.cached).toBe(false);
    expect((await call<IndicatorResult>("/technical/MSFT?indicator=ema")).body.cached).toBe(true);
    const id = await listingId("MSFT");
    const newest = (await call<StoredTicker>("/database/ticker/MSFT")).body.listings[0]?.last_date ?? "";
    expect(newest).not.toBe("");
    await deps.db.delete(pricesDaily).where(and(eq(pricesDaily.listingId, id), gte(pricesDaily.date, newest)));
    expect(
      (await call<IngestAnswer>("/historical/ingest", { method: "POST", body: { tickers: ["MSFT"] } })).body.results[0]
        ?.rows_written,
    ).toBe(1);
    expect((await call<IndicatorResult>("/technical/MSFT?indicator=ema")).body.cached).toBe(false);
  });

  it("an ingestion also drops every screen and the ticker's valuations, and no other ticker's", async () => {
    const cache = buildDeps(env).cache;
    await call("/technical/screen", { settleBackground: true });
    // Other files cache screens at the same time: the ones held before the ingestion must go.
    const screens = await cache.keys("screener:*");
    expect(screens.length).toBeGreaterThan(0);
    // Valuations as GET /dcf keeps them (their figures need an enrichment this file does not make).
    await cache.set("dcf:MSFT:v2:fcf", { planted: true }, 600);
    await cache.set("dcf:AAPL:v2:fcf", { planted: true }, 600);
    const id = await listingId("MSFT");
    const newest = (await call<StoredTicker>("/database/ticker/MSFT")).body.listings[0]?.last_date ?? "";
    await deps.db.delete(pricesDaily).where(and(eq(pricesDaily.listingId, id), gte(pricesDaily.date, newest)));
    const ingest = await call<IngestAnswer>("/historical/ingest", { method: "POST", body: { tickers: ["MSFT"] } });
    expect(ingest.body.results[0]?.rows_written).toBe(1);
    for (const key of screens) expect(await cache.get(key), key).toBeNull();
    expect(await cache.get("dcf:MSFT:v2:fcf")).toBeNull();
    expect(await cache.get("dcf:AAPL:v2:fcf")).toEqual({ planted: true });
    await cache.delete("dcf:AAPL:v2:fcf");
  });
});

describe("GET /technical/list", () => {
  it("lists the 18 indicators with parameters, outputs and minimum bars", async () => {
    const res = await call<IndicatorCatalogue>("/technical/list");
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(18);
    const byName = Object.fromEntries(res.body.indicators.map((i) => [i.name, i]));
    expect(Object.keys(byName).sort()).toEqual([
      "ad",
      "atr",
      "bbands",
      "cci",
      "dema",
      "ema",
      "kc",
      "macd",
      "mfi",
      "mom",
      "obv",
      "roc",
      "rsi",
      "sma",
      "stoch",
      "tema",
      "vwap",
      "wma",
    ]);
    expect(byName.macd).toMatchObject({
      category: "momentum",
      min_bars: 34,
      outputs: [{ name: "macd" }, { name: "signal" }, { name: "histogram" }],
    });
    expect(byName.bbands?.params.map((p) => [p.name, p.default])).toEqual([
      ["length", 20],
      ["std", 2],
    ]);
    expect(byName.vwap?.intraday_only).toBe(true);
    expect(byName.tema?.min_bars).toBe(58);
  });
});

describe("a date's value, whatever the window", () => {
  const DAILY = INDICATORS.filter((i) => !i.intradayOnly).map((i) => i.name);
  type Values = Map<string, string | null>;
  /** Each indicator output's value by bar time, from one /multi answer. */
  const valuesOf = (r: MultiResult): Values => {
    const out: Values = new Map();
    for (const ind of r.indicators)
      for (const s of ind.series) for (const p of s.values) out.set(`${ind.indicator}.${s.name}@${p.t}`, p.v);
    return out;
  };
  const multi = async (resolution: string, window: string) => {
    const res = await call<MultiResult>(
      `/technical/AAPL/multi?indicators=${DAILY.join(",")}&resolution=${resolution}${window}`,
    );
    expect(res.status, window).toBe(200);
    expect(res.body.errors, window).toEqual([]);
    return valuesOf(res.body);
  };

  it("is the same for every indicator and resolution over windows of any start, end and length", async () => {
    for (const resolution of ["1D", "1W", "1M"]) {
      const whole = await multi(resolution, "&limit=100000");
      const times = [...new Set([...whole.keys()].map((k) => k.split("@")[1] as string))].sort();
      const day = (i: number) => (times.at(i) as string).slice(0, 10);
      const windows = [
        "",
        `&from_date=${day(-30)}`,
        `&from_date=${day(-3)}`,
        `&limit=2`,
        `&to_date=${day(-10)}&limit=5`,
        `&from_date=${day(-40)}&to_date=${day(-20)}`,
        // Inside a bar's period (for weeks and months: the bar that holds it is answered).
        `&from_date=${new Date(Date.parse(day(-4)) + 86_400_000).toISOString().slice(0, 10)}`,
      ];
      for (const w of windows) {
        const got = await multi(resolution, w);
        expect(got.size, `${resolution}${w}`).toBeGreaterThan(0);
        // A week or month that `to_date` cuts is another bar (its days up to that date), as in /eod.
        const cut = resolution === "1D" ? null : (/to_date=([\d-]+)/.exec(w)?.[1] ?? null);
        for (const [key, v] of got)
          if (!cut || !key.endsWith(`@${cut}T00:00:00Z`)) expect(v, `${resolution}${w} ${key}`).toBe(whole.get(key));
      }
    }
  });

  it("is the same for RSI, MACD and Bollinger bands from the single route, the batch and the screener", async () => {
    const last = (await call<IndicatorResult>("/technical/AAPL?indicator=rsi")).body;
    const date = last.to_date?.slice(0, 10) as string;
    const june = new Date(Date.parse(`${date}T00:00:00Z`) - 180 * 86_400_000).toISOString().slice(0, 10);
    const month = `${date.slice(0, 8)}01`;
    for (const indicator of ["rsi", "macd", "bbands"]) {
      const at = async (window: string) => {
        const r = await call<IndicatorResult>(`/technical/AAPL?indicator=${indicator}${window}`);
        return r.body.series.map((s) => s.values.find((p) => p.t.startsWith(date))?.v);
      };
      const values = await at("");
      expect(values.every((v) => typeof v === "string")).toBe(true);
      expect(await at(`&from_date=${june}`)).toEqual(values);
      expect(await at(`&from_date=${month}`)).toEqual(values);
      expect(await at(`&to_date=${date}&limit=1`)).toEqual(values);
    }
    const batch = await call<BatchAnswer>("/technical/batch", {
      method: "POST",
      body: { tickers: ["AAPL"], indicators: ["rsi_14"], limit: 3 },
    });
    const batchRsi = batch.body.AAPL?.indicators[0]?.series[0]?.values.at(-1);
    expect(batchRsi).toEqual(last.series[0]?.values.at(-1));
    const screen = await call<ScreenAnswer>("/technical/screen?indicator=rsi&operator=gt&value=0&limit=500");
    const aapl = screen.body.matches.find((m) => m.ticker === "AAPL");
    expect(aapl?.value).toBe(last.series[0]?.values.at(-1)?.v);
  });
});

describe("GET /technical/{ticker}/multi and /chart", () => {
  it("computes the default set on one read and reports failures beside the results", async () => {
    const res = await call<MultiResult>("/technical/AAPL/multi");
    expect(res.status).toBe(200);
    expect(res.body.indicators.map((i) => [i.indicator, i.params])).toEqual([
      ["sma", { length: 20 }],
      ["ema", { length: 50 }],
      ["rsi", { length: 14 }],
      ["macd", { fast: 12, slow: 26, signal: 9 }],
    ]);
    expect(res.body.errors).toEqual([]);
    const mixed = await call<MultiResult>(
      "/technical/AAPL/multi?indicators=foo,bbands_10_3,vwap,sma_x&include_ohlcv=true&limit=50",
    );
    expect(mixed.body.indicators.map((i) => i.params)).toEqual([{ length: 10, std: 3 }]);
    expect(mixed.body.errors.map((e) => e.indicator)).toEqual(["foo", "sma_x", "vwap"]);
    expect(mixed.body.ohlcv).toHaveLength(50);
    expect(mixed.body.count).toBe(50);
    const none = await call<MultiResult>("/technical/DIS/multi");
    expect(none.body).toMatchObject({ count: 0, indicators: [] });
    expect(none.body.errors[0]?.error).toContain("No 1D prices stored for DIS");
  });

  it("aligns bars and indicator columns on the same timestamps", async () => {
    const res = await call<ChartAnswer>("/technical/AAPL/chart");
    expect(res.status).toBe(200);
    expect(res.body.timestamps).toHaveLength(200);
    expect(res.body.timestamps[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(res.body.indicators)).toEqual(["sma_20", "ema_50", "volume"]);
    for (const col of Object.values(res.body.indicators)) expect(col).toHaveLength(200);
    // Computed over the stored history: the first answered bar has its value too.
    expect(res.body.indicators.sma_20?.every((v) => v !== null)).toBe(true);
    const closes = res.body.ohlcv.close;
    expect(res.body.indicators.sma_20?.[19]).toBeCloseTo(closes.slice(0, 20).reduce((a, b) => a + b, 0) / 20, 9);
    expect(res.body.indicators.volume).toEqual(res.body.ohlcv.volume);
    const macd = await call<ChartAnswer>("/technical/AAPL/chart?indicators=macd&limit=60");
    expect(Object.keys(macd.body.indicators)).toEqual(["macd_macd", "macd_signal", "macd_histogram"]);
  });

  it("takes more than ten indicators (only the batch route has that cap), bounded by what they cost", async () => {
    const names = Array.from({ length: 15 }, (_, i) => `sma_${i + 2}`);
    const multi = await call<MultiResult>(`/technical/AAPL/multi?indicators=${names.join(",")}&limit=50`);
    expect(multi.status).toBe(200);
    expect(multi.body.indicators.map((r) => r.params.length)).toEqual(names.map((_, i) => i + 2));
    const chart = await call<ChartAnswer>(`/technical/AAPL/chart?indicators=${names.join(",")}&limit=50`);
    expect(chart.status).toBe(200);
    expect(Object.keys(chart.body.indicators)).toEqual(names);
  });
});

describe("caching of multi, chart and batch answers", () => {
  it("keeps each answer under the ticker's technical keys, so an ingestion of the ticker drops it", async () => {
    await forgetCached("technical:MSFT:*");
    const cache = buildDeps(env).cache;
    // Each answer's cache write comes after it: the keys are read once its background work settled.
    const settled = { settleBackground: true };
    const first = await call<MultiResult>("/technical/MSFT/multi?indicators=rsi_14,sma_20", settled);
    expect(await cache.keys("technical:MSFT:multi:*")).toHaveLength(1);
    const second = await call<MultiResult>("/technical/MSFT/multi?indicators=rsi_14,sma_20");
    // The same answer, computed once: the cached copy carries the first one's time, and says it is cached.
    expect(first.body.indicators.map((r) => r.cached)).toEqual([false, false]);
    expect(second.body).toEqual({
      ...first.body,
      indicators: first.body.indicators.map((r) => ({ ...r, cached: true })),
    });
    await call("/technical/MSFT/chart?indicators=macd", settled);
    expect(await cache.keys("technical:MSFT:chart:*")).toHaveLength(1);
    await call("/technical/batch", { ...settled, method: "POST", body: { tickers: ["MSFT"], indicators: ["ema_10"] } });
    expect(await cache.keys("technical:MSFT:multi:*")).toHaveLength(2);
    // A ticker without prices is not cached.
    const none = await call<MultiResult>("/technical/DIS/multi", settled);
    expect(none.status).toBe(200);
    expect(none.body.errors.at(-1)?.indicator).toBe("*");
    expect(await cache.keys("technical:DIS:multi:*")).toEqual([]);
  });
});

describe("POST /technical/batch", () => {
  it("answers each ticker with a read-only key, within the limits", async () => {
    const res = await call<BatchAnswer>("/technical/batch", {
      method: "POST",
      key: READ_ONLY_KEY,
      body: { tickers: ["AAPL", "MSFT", "DIS"], indicators: ["rsi_14", "sma_50"], limit: 100 },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["AAPL", "MSFT", "DIS"]);
    expect(res.body.AAPL?.indicators).toHaveLength(2);
    expect(res.body.AAPL?.count).toBe(100);
    expect(res.body.DIS?.errors[0]?.error).toContain("No 1D prices stored");
    const tooMany = await call<ErrorBody>("/technical/batch", {
      method: "POST",
      body: { tickers: Array.from({ length: 21 }, (_, i) => `T${i}`), indicators: ["rsi"] },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe("At most 20 tickers per batch (TECHNICAL_MAX_BATCH_TICKERS); 21 given");
    const tooManyIndicators = await call<ErrorBody>("/technical/batch", {
      method: "POST",
      body: { tickers: ["AAPL"], indicators: Array.from({ length: 11 }, () => "rsi") },
    });
    expect(tooManyIndicators.status).toBe(400);
    expect(tooManyIndicators.body.message).toBe(
      "At most 10 indicators per batch (TECHNICAL_MAX_BATCH_INDICATORS); 11 given",
    );
  });
});

describe("GET /technical/screen", () => {
  it("screens several conditions at once, each match with the values it was tested on", async () => {
    await forgetCached("screener:*");
    const where = (w: string, limit = 1000) =>
      call<ConditionsAnswer>(`/technical/screen/conditions?where=${encodeURIComponent(w)}&limit=${limit}`);
    // One condition (and one always true) is the single screen: the same instruments, order and values.
    const one = await where("rsi_14 < 101, close > 0");
    expect(one.status).toBe(200);
    const single = await call<ScreenAnswer>("/technical/screen?indicator=rsi&operator=lt&value=101&limit=1000");
    expect(one.body.total).toBe(single.body.total);
    expect(one.body.matches.map((m) => [m.ticker, m.values.rsi_14, m.close, m.as_of])).toEqual(
      single.body.matches.map((m) => [m.ticker, m.value, m.close, m.as_of]),
    );
    // A limit below the matches answers the first of the same order, and counts them all.
    const first = await where("rsi_14 < 101, close > 0", 1);
    expect(one.body.total).toBeGreaterThan(1);
    expect(first.body.total).toBe(one.body.total);
    expect(first.body.matches).toEqual(one.body.matches.slice(0, 1));

    // Against another indicator and a text field; AAPL's values are its own routes'.
    const lastOf = async (q: string) =>
      (await call<IndicatorResult>(`/technical/AAPL?${q}`)).body.series[0]?.values.at(-1)?.v as string;
    const [rsi, sma] = [await lastOf("indicator=rsi"), await lastOf("indicator=sma&period=200")];
    const close = String((await call<EodAnswer>("/eod/AAPL?period=5d")).body.data.at(-1)?.Close);
    const both = await where("rsi < 101 and close > sma_200, exchange = NASDAQ");
    expect(both.status).toBe(200);
    for (const m of both.body.matches) {
      expect(Number(m.values.close)).toBeGreaterThan(Number(m.values.sma_200));
      expect(m.ticker.includes(".")).toBe(false);
    }
    const aapl = both.body.matches.find((m) => m.ticker === "AAPL");
    expect(aapl !== undefined).toBe(Number(close) > Number(sma));
    if (aapl) expect(aapl.values).toEqual({ rsi_14: rsi, sma_200: sma, close });
    expect(both.body.total).toBeLessThanOrEqual(one.body.total);

    // One length no snapshot holds: computed over the instruments the other conditions leave, the
    // ticker route's value.
    const other = await where("rsi_14 < 101 and sma_30 > 0");
    expect(other.status).toBe(200);
    const sma30 = await lastOf("indicator=sma&period=30");
    expect(other.body.matches.find((m) => m.ticker === "AAPL")?.values.sma_30).toBe(sma30);
    expect(other.body.total).toBe(one.body.total);
    const two = await call<ErrorBody>(
      `/technical/screen/conditions?where=${encodeURIComponent("sma_30 > 1, ema_30 > 1")}`,
    );
    expect(two.status).toBe(400);
    expect(two.body.message).toMatch(/^a screen takes one indicator no snapshot holds at a time/);
    const extra = await call<ErrorBody>("/technical/screen/conditions?where=rsi%3C30&indicator=rsi");
    expect(extra.status).toBe(400);
  });

  it("screens the stored figures (market cap, P/E, yield) in the listing's currency, with the day they were fetched", async () => {
    await forgetCached("screener:*");
    // A fundamentals request stores AAPL's figures; MSFT's are not asked for here.
    await deps.db.execute(sql`DELETE FROM screen_figures`);
    const deep = await call<{ highlights: Record<string, number>; meta: { fetch_date: string } }>(
      "/fundamental/deep?ticker=AAPL&sections=highlights",
    );
    expect(deep.status).toBe(200);
    const { market_cap: cap, pe_ratio: pe, dividend_yield: dy } = deep.body.highlights;
    expect(cap).toBeGreaterThan(1e11);
    const w = `rsi_14 < 101 and close > 0 and market_cap > ${Math.floor((cap as number) / 1e9) - 1}bn and dividend_yield >= 0%`;
    const res = await call<ConditionsAnswer>(`/technical/screen/conditions?where=${encodeURIComponent(w)}`);
    expect(res.status).toBe(200);
    // Only the instrument with stored figures can match a condition on them.
    expect(res.body.matches.map((m) => m.ticker)).toEqual(["AAPL"]);
    const aapl = res.body.matches[0];
    expect(aapl?.currency).toBe("USD");
    expect(aapl?.figures_as_of).toBe(deep.body.meta.fetch_date);
    expect(aapl?.values).toMatchObject({
      market_cap: toDecimalString(cap as number),
      pe_ratio: toDecimalString(pe as number),
      dividend_yield: toDecimalString(dy as number),
    });
    const above = await call<ConditionsAnswer>(
      `/technical/screen/conditions?where=${encodeURIComponent(`market_cap > ${cap}, rsi_14 < 101`)}`,
    );
    expect(above.body.total).toBe(0);
    const bad = await call<ErrorBody>(`/technical/screen/conditions?where=${encodeURIComponent("market_cap > 10zz")}`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^'market_cap > 10zz': /);
  });

  it("refuses a parameter it does not take with a 400 naming it", async () => {
    const res = await call<ErrorBody>("/technical/screen?indicator=rsi&operator=lt&value=30&and=sma_200");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Invalid request");
    expect(res.body.details?.map((d) => d.message).join(" ")).toMatch(/unrecognized key.*"and"/i);
  });

  it("finds the instruments whose last value meets the condition, with the single route's values", async () => {
    await forgetCached("screener:*");
    // Other files (and earlier runs on a kept database) store prices too: a limit above the catalogue size.
    const res = await call<ScreenAnswer>("/technical/screen?indicator=rsi&operator=lt&value=101&limit=1000");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      indicator: "rsi",
      params: { length: 14 },
      operator: "lt",
      value: 101,
      resolution: "1D",
    });
    const tickers = res.body.matches.map((m) => m.ticker);
    expect(tickers).toContain("AAPL");
    expect(tickers).toContain("MSFT");
    expect(res.body.total).toBe(res.body.matches.length);
    // Every RSI is at most 100: each instrument with enough bars matches.
    expect(res.body.total).toBe(res.body.screened);
    for (const m of res.body.matches.filter((x) => ["AAPL", "MSFT"].includes(x.ticker))) {
      const single = await call<IndicatorResult>(`/technical/${m.ticker}?indicator=rsi&period=14`);
      expect(m.value).toBe(single.body.series[0]?.values.at(-1)?.v);
      expect(m.isin).toBe(m.ticker === "AAPL" ? "US0378331005" : "US5949181045");
    }
    // Sorted lowest first for lt.
    const values = res.body.matches.map((m) => Number(m.value));
    expect(values).toEqual([...values].sort((a, b) => a - b));
    const cached = await call<ScreenAnswer>("/technical/screen?indicator=rsi&operator=lt&value=101&limit=1000");
    expect(cached.body.calculated_at).toBe(res.body.calculated_at);
    const none = await call<ScreenAnswer>("/technical/screen?indicator=rsi&operator=gt&value=100");
    expect(none.body).toMatchObject({ total: 0, matches: [] });
    expect((await call("/technical/screen?operator=eq")).status).toBe(400);
    expect((await call("/technical/screen?indicator=vwap")).status).toBe(400);
  });

  it("answers declared indicators from the snapshots and other lengths from the bars, both with the ticker route's value", async () => {
    await forgetCached("screener:*");
    // Declared (each one's defaults, the 50- and 200-day averages) and not declared (other lengths).
    // Declared: each one's defaults, the screener's default length (14), the 50- and 200-day
    // averages; not declared: other lengths. `period` is given to both routes (the screener's
    // default is 14, the ticker route's the indicator's own).
    const cases = [
      ["rsi", 14, true],
      ["sma", 20, true],
      ["sma", 14, true],
      ["sma", 200, true],
      ["ema", 50, true],
      ["macd", undefined, true],
      ["stoch", undefined, true],
      ["bbands", 20, true],
      ["bbands", 14, true],
      ["atr", 14, true],
      ["obv", undefined, true],
      ["mfi", 14, true],
      ["cci", 14, true],
      ["rsi", 10, false],
      ["sma", 30, false],
      ["ema", 100, false],
      ["bbands", 30, false],
    ] as const;
    for (const [indicator, period, declared] of cases) {
      const spec = indicatorSpec(indicator);
      if (!spec) throw new Error(`no indicator ${indicator}`);
      expect(isSnapshotted(indicator, withDefaults(spec, period ? { length: period } : {}))).toBe(declared);
      const length = period ? `&period=${period}` : "";
      const res = await call<ScreenAnswer>(
        `/technical/screen?indicator=${indicator}${length}&operator=gte&value=-1e300&limit=1000`,
      );
      expect(res.status, `${indicator}${length}`).toBe(200);
      expect(res.body.screened + res.body.skipped, `${indicator}${length}`).toBeGreaterThanOrEqual(2);
      for (const ticker of ["AAPL", "MSFT"]) {
        const single = await call<IndicatorResult>(`/technical/${ticker}?indicator=${indicator}${length}`);
        const last = single.body.series[0]?.values.at(-1)?.v;
        expect(last, `${ticker} ${indicator}${length}`).toMatch(/^-?\d/);
        const found = res.body.matches.find((m) => m.ticker === ticker);
        expect(found?.value, `${ticker} ${indicator}${length}`).toBe(last);
      }
    }
  });

  it("answers other lengths and resolutions from the bars they need: the full history's value where it has a window, the ticker route's always", async () => {
    await forgetCached("screener:*");
    // Every AAPL bar: the full history a windowed value must agree with, bit for bit.
    const all = await readDailyBars(deps.db, await listingId("AAPL"));
    expect(all.length).toBeGreaterThan(2000);
    const cases = [
      ["wma", 25, "1D"],
      ["cci", 30, "1D"],
      ["mfi", 21, "1D"],
      ["roc", 5, "1D"],
      ["sma", 10, "1W"],
      ["stoch", undefined, "1W"],
      ["bbands", 12, "1M"],
      ["mom", 3, "1M"],
      ["rsi", 14, "1W"],
      ["obv", undefined, "1W"],
      ["ema", 10, "1M"],
      ["macd", undefined, "1M"],
    ] as const;
    for (const [indicator, period, resolution] of cases) {
      const spec = indicatorSpec(indicator);
      if (!spec) throw new Error(`no indicator ${indicator}`);
      const params = withDefaults(spec, period ? { length: period } : {});
      const label = `${indicator} ${period ?? ""} ${resolution}`;
      expect(resolution !== "1D" || !isSnapshotted(indicator, params), label).toBe(true);
      const length = period ? `&period=${period}` : "";
      const res = await call<ScreenAnswer>(
        `/technical/screen?indicator=${indicator}${length}&resolution=${resolution}&operator=gte&value=-1e300&limit=1000`,
      );
      expect(res.status, label).toBe(200);
      const found = res.body.matches.find((m) => m.ticker === "AAPL")?.value;
      const single = await call<IndicatorResult>(
        `/technical/AAPL?indicator=${indicator}${length}&resolution=${resolution}`,
      );
      expect(single.status, label).toBe(200);
      expect(found, label).toMatch(/^-?\d/);
      expect(found, label).toBe(single.body.series[0]?.values.at(-1)?.v);
      if (!spec.windowed) continue;
      const bars = resolution === "1D" ? all : resample(all, resolution === "1W" ? "weekly" : "monthly");
      const fromAll = spec.compute(seriesOfBars(bars), params)[0]?.[bars.length - 1] as number;
      expect(found, label).toBe(toDecimalString(fromAll));
    }
  });

  it("queues a screen of another length, answers 202 with its run, then every threshold from the finished run", async () => {
    await forgetCached("screener:*");
    // A kept database may hold today's runs of an earlier test run: they start again here.
    await deps.db.execute(
      sql`DELETE FROM screen_runs WHERE indicator = 'rsi' AND params IN ('{"length":23}', '{"length":24}')`,
    );
    const path = (q: string) => `/technical/screen?indicator=rsi&period=23&mode=queued&limit=1000&${q}`;
    // Two first requests at once start one run of the day, and both answer it.
    const [a, b] = await Promise.all([
      call<QueuedScreen>(path("operator=lt&value=101")),
      call<QueuedScreen>(path("operator=lt&value=101")),
    ]);
    expect([a.status, b.status]).toEqual([202, 202]);
    const run = a.body.run;
    expect(b.body.run.id).toBe(run.id);
    expect(run).toMatchObject({ indicator: "rsi", params: { length: 23 }, resolution: "1D", status: "running" });
    expect(run.shares).toBeGreaterThanOrEqual(1);
    expect(a.body.message).toMatch(/computed in the background for today/);
    // The queue computes its shares; the run says when it is done.
    let state = run;
    for (let i = 0; i < 100 && state.status !== "finished"; i++) {
      await new Promise((r) => setTimeout(r, 200));
      state = (await call<typeof run>(run.poll)).body;
    }
    expect(state).toMatchObject({ id: run.id, status: "finished", shares_done: run.shares });
    // Its answers are the synchronous screen's, value for value, for any threshold.
    for (const q of ["operator=lt&value=101", "operator=gt&value=50"]) {
      const queued = await call<ScreenAnswer>(path(q));
      expect(queued.status).toBe(200);
      expect(queued.body.run_id).toBe(run.id);
      const atOnce = await call<ScreenAnswer>(`/technical/screen?indicator=rsi&period=23&limit=1000&${q}`);
      expect(atOnce.body.run_id).toBeNull();
      expect(queued.body.matches).toEqual(atOnce.body.matches);
      expect([queued.body.total, queued.body.screened, queued.body.skipped]).toEqual([
        atOnce.body.total,
        atOnce.body.screened,
        atOnce.body.skipped,
      ]);
    }
    expect((await call<ErrorBody>("/technical/screen/runs/999999999")).status).toBe(404);

    // A conditions screen with that length reads the finished run: the same values.
    const fromRun = await call<ConditionsAnswer>(
      `/technical/screen/conditions?where=${encodeURIComponent("rsi_23 < 101, close > 0")}&limit=1000`,
    );
    expect(fromRun.status).toBe(200);
    const sync = await call<ScreenAnswer>("/technical/screen?indicator=rsi&period=23&operator=lt&value=101&limit=1000");
    expect(fromRun.body.matches.map((m) => [m.ticker, m.values.rsi_23])).toEqual(
      sync.body.matches.map((m) => [m.ticker, m.value]),
    );

    // A share delivered again (a lost acknowledgement) changes nothing.
    const count = async () =>
      (
        await deps.db.execute<{ n: number }>(
          sql`select count(*)::int as n from screen_run_values where run_id = ${run.id}`,
        )
      ).rows[0]?.n;
    const before = await count();
    const batch = createMessageBatch(SCREEN_QUEUE_NAME, [
      { id: `again-${run.id}`, timestamp: new Date(), attempts: 1, body: { runId: run.id, share: 0 } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toHaveLength(1);
    expect(await count()).toBe(before);
    // A finished run is no stalled one: nothing is sent again, whoever asks.
    expect(await claimResend(deps.db, run.id, new Date(Date.now() + 3_600_000), 600_000)).toBe(false);

    // At most SCREEN_RUNS_PER_DAY runs start a day, whoever asks: the next is a 429 until the day ends.
    const started = await deps.db.execute<{ n: number }>(
      sql`select count(*)::int as n from screen_runs where day = ${run.day}`,
    );
    const fill = SCREEN_RUNS_PER_DAY - (started.rows[0]?.n ?? 0);
    await deps.db.execute(sql`
      INSERT INTO screen_runs (key, indicator, params, resolution, day, shares, started_at)
      SELECT 'filler|' || n || '|' || ${run.day}, 'sma', '{"length":' || (500 + n) || '}', '1D', ${run.day}::date, 1, now()
      FROM generate_series(1, ${fill}) n`);
    try {
      const refused = await call<ErrorBody>("/technical/screen?indicator=rsi&period=24&mode=queued");
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^50 queued screens were started today/);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      // A run already started still answers.
      expect((await call<ScreenAnswer>(path("operator=lt&value=30"))).status).toBe(200);
    } finally {
      await deps.db.execute(sql`DELETE FROM screen_runs WHERE key LIKE 'filler|%'`);
    }

    // A run without progress for ten minutes is sent again once, by whoever claims it first.
    const [stalled] = (
      await deps.db.execute<{ id: number }>(sql`
        INSERT INTO screen_runs (key, indicator, params, resolution, day, shares, started_at)
        VALUES ('stalled|' || ${run.day}, 'sma', '{"length":499}', '1D', ${run.day}::date, 2, now() - interval '11 minutes')
        RETURNING id`)
    ).rows;
    const claims = await Promise.all([0, 1].map(() => claimResend(deps.db, stalled?.id ?? 0, new Date(), 600_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimResend(deps.db, stalled?.id ?? 0, new Date(), 600_000)).toBe(false);
    // A run answers its own day: the daily cleanup forgets the earlier days'.
    await deps.db.execute(sql`UPDATE screen_runs SET day = ${run.day}::date - 1 WHERE id = ${stalled?.id ?? 0}`);
    expect(await pruneRuns(deps.db, run.day)).toBe(1);
    expect((await call(`/technical/screen/runs/${stalled?.id}`)).status).toBe(404);
  });

  it("reads a declared screen from the snapshots, not from the bars", async () => {
    await forgetCached("screener:*");
    const id = await listingId("AAPL");
    const where = and(
      eq(indicatorSnapshots.listingId, id),
      eq(indicatorSnapshots.indicator, "rsi"),
      eq(indicatorSnapshots.params, '{"length":14}'),
    );
    const [stored] = await deps.db.select().from(indicatorSnapshots).where(where);
    // A snapshot value no computation gives: only the snapshot path can answer it.
    await deps.db.update(indicatorSnapshots).set({ value: -7.25 }).where(where);
    try {
      const declared = await call<ScreenAnswer>("/technical/screen?indicator=rsi&period=14&operator=lt&value=0");
      expect(declared.body.matches.find((m) => m.ticker === "AAPL")?.value).toBe("-7.25");
      const other = await call<ScreenAnswer>("/technical/screen?indicator=rsi&period=13&operator=lt&value=0");
      expect(other.body.matches.find((m) => m.ticker === "AAPL")).toBeUndefined();
    } finally {
      await deps.db
        .update(indicatorSnapshots)
        .set({ value: stored?.value ?? null })
        .where(where);
      await forgetCached("screener:*");
    }
  });

  it("computes a screen's last values once per indicator, length and resolution: another threshold filters the same values", async () => {
    await forgetCached("screener:*");
    const id = await listingId("AAPL");
    const [last] = await deps.db
      .select()
      .from(pricesDaily)
      .where(eq(pricesDaily.listingId, id))
      .orderBy(sql`${pricesDaily.date} desc`)
      .limit(1);
    const screenAapl = async (q: string) =>
      (await call<ScreenAnswer>(`/technical/screen?indicator=rsi&period=13&limit=1000&${q}`)).body.matches.find(
        (m) => m.ticker === "AAPL",
      )?.value;
    const first = await screenAapl("operator=gte&value=-1");
    expect(first).toMatch(/^\d/);
    // The last close changed behind the caches' back: a screen that read the bars again would see it.
    const at = and(eq(pricesDaily.listingId, id), eq(pricesDaily.date, last?.date ?? ""));
    await deps.db
      .update(pricesDaily)
      .set({ close: String(Number(last?.close) * 3) })
      .where(at);
    try {
      expect(await screenAapl("operator=lt&value=101")).toBe(first);
      expect(await screenAapl("operator=gt&value=0")).toBe(first);
      await forgetCached("screener:*");
      const reread = await screenAapl("operator=gte&value=-1");
      expect(reread).toMatch(/^\d/);
      expect(reread).not.toBe(first);
    } finally {
      await deps.db.update(pricesDaily).set({ close: last?.close }).where(at);
      await forgetCached("screener:*");
    }
  });

  it("keeps each listing's snapshots as of its last stored bar", async () => {
    const id = await listingId("AAPL");
    const rows = await deps.db.select().from(indicatorSnapshots).where(eq(indicatorSnapshots.listingId, id));
    const last = await deps.db.execute<{ d: string }>(
      sql`select max(date)::text as d from prices_daily where listing_id = ${id}`,
    );
    expect(rows).toHaveLength(SNAPSHOT_SET.length);
    for (const r of rows) expect(r.asOf, r.indicator).toBe(last.rows[0]?.d);
    // Its screen row holds the same values side by side, in the declared order, with the last close.
    const [row] = await deps.db.select().from(screenRows).where(eq(screenRows.listingId, id));
    const close = await deps.db.execute<{ c: string }>(
      sql`select close::text as c from prices_daily where listing_id = ${id} order by date desc limit 1`,
    );
    expect(row).toMatchObject({ asOf: last.rows[0]?.d, close: Number(close.rows[0]?.c), preferred: true });
    expect(row?.values).toEqual(
      SNAPSHOT_SET.map(
        ({ spec, params }) =>
          rows.find((r) => r.indicator === spec.name && r.params === paramsKey(params))?.value ?? null,
      ),
    );
    // Over the stored history, as every indicator route computes.
    expect(rows.every((r) => r.windowBars === HISTORY_BARS && r.computable)).toBe(true);
  });
});
