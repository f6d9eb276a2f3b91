import { and, count, eq, gte, lt } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { upsertIntradayCandle } from "../../src/db/repositories/realtime";
import { intradayBars, intradayCoverage, listings, pricesIntraday } from "../../src/db/schema";
import type { IntradayBody } from "../../src/routes/intraday/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { simMinutes } from "../../tools/sandbox/yahoo-intraday";
import { withDb } from "../helpers/db";
import { INTRADAY_SIM_AS_OF } from "../helpers/global-setup";
import { fault, resetTickers, simRequests } from "../helpers/listings";
import { call } from "../helpers/worker-http";

/**
 * GET /intraday/{ticker} against a delayed-provider simulator whose clock starts at
 * INTRADAY_SIM_AS_OF (Wednesday 25 November 2026, noon in New York), the service pinned at the same
 * instant: the provider's history limits (1m: 30 days, 5m/15m: 60, 1h: 730) and the session under
 * way are counted from it. Expected bars are the simulator's own minutes, bucketed here.
 */
const sim = inject("intradaySimUrl");
const AT = INTRADAY_SIM_AS_OF;
const OPTS = { at: AT, env: { DELAYED_PROVIDER_BASE_URL: sim } };
const get = <T = IntradayBody>(path: string) => call<T>(path, OPTS);

/**
 * What the service reads of a simulated price sent as float32: the 2-decimal price (the price hint)
 * nearest the float32, which reads back as it. Where a float32 cannot hold cents (a pence line's
 * 144560.42, float32 steps of 1/64) two prices may share one; the nearest is all the wire tells.
 */
const wire = (x: number) => {
  const cents = Number(Math.fround(x).toFixed(2));
  expect(Math.fround(cents)).toBe(Math.fround(x));
  return cents;
};

type Expected = { datetime: string; open: number; high: number; low: number; close: number; volume: number };

/** The simulator's minutes of a session in bars of `minutes`, counted from `open` (UTC "HH:MM"), prices × `scale`. */
function expectedBars(symbol: string, date: string, minutes: number, open: string, scale = 1): Expected[] {
  const start = Date.parse(`${date}T${open}:00Z`) / 1000;
  const out: Expected[] = [];
  for (const m of simMinutes(symbol, date)) {
    const t = start + Math.floor((m.time - start) / (minutes * 60)) * minutes * 60;
    const datetime = new Date(t * 1000).toISOString().replace(".000Z", "Z");
    const p = (x: number) => (scale === 1 ? wire(x) : Number((wire(x) * scale).toFixed(8)));
    const cur = out.at(-1);
    if (cur?.datetime === datetime) {
      cur.high = Math.max(cur.high, p(m.high));
      cur.low = Math.min(cur.low, p(m.low));
      cur.close = p(m.close);
      cur.volume += m.volume;
    } else out.push({ datetime, open: p(m.open), high: p(m.high), low: p(m.low), close: p(m.close), volume: m.volume });
  }
  return out;
}

const shape = (b: IntradayBody["bars"][number]) => ({
  datetime: b.datetime,
  open: b.open,
  high: b.high,
  low: b.low,
  close: b.close,
  volume: b.volume,
});

async function listingId(ticker: string): Promise<number> {
  const [row] = await withDb((db) => db.select({ id: listings.id }).from(listings).where(eq(listings.ticker, ticker)));
  if (!row) throw new Error(`${ticker} is not in the catalogue`);
  return row.id;
}

const chartRequests = async (symbol: string) => (await simRequests(sim))[`chart ${symbol}`] ?? 0;

describe("GET /intraday/{ticker}", () => {
  beforeAll(() => resetTickers("AAPL", "SWDA.L"));
  afterAll(() => resetTickers("AAPL", "SWDA.L"));

  it("fetches a past session's minutes once, stores them, and answers them from storage after", async () => {
    const res = await get("/intraday/AAPL?interval=1m&from=2026-11-20&to=2026-11-20");
    expect(res.status).toBe(200);
    expect(res.body.sessions).toEqual(["2026-11-20"]);
    expect(res.body.time_zone).toBe("America/New_York");
    const expected = expectedBars("AAPL", "2026-11-20", 1, "14:30");
    // A whole session (9:30 to 16:00 New York) less the slots the provider sent as nulls.
    expect(expected.length).toBeGreaterThan(380);
    expect(res.body.bars.map(shape)).toEqual(expected);
    expect(res.body.bars.every((b) => b.source === "delayed_provider")).toBe(true);
    expect(res.body.provider_requests).toBe(1);
    expect(res.body.provider_history).toEqual([{ interval: "1m", days: 30, from: "2026-10-27" }]);
    expect(res.headers.get("cache-control")).toBe("private, max-age=3600");

    const before = await chartRequests("AAPL");
    const again = await get("/intraday/AAPL?interval=1m&from=2026-11-20&to=2026-11-20");
    expect(again.body.provider_requests).toBe(0);
    expect(await chartRequests("AAPL")).toBe(before);
    expect(again.body.bars).toEqual(res.body.bars);
  });

  it("resamples the stored minutes to 5m and 1h from the session's open, as the provider's own bars", async () => {
    const five = await get("/intraday/AAPL?interval=5m&from=2026-11-20&to=2026-11-20");
    expect(five.body.provider_requests).toBe(0);
    expect(five.body.bars.map(shape)).toEqual(expectedBars("AAPL", "2026-11-20", 5, "14:30"));
    expect(five.body.bars).toHaveLength(78);
    const hour = await get("/intraday/AAPL?interval=1h&from=2026-11-20&to=2026-11-20");
    // 9:30, 10:30 … 15:30 New York: the last hour is the session's last half hour.
    expect(hour.body.bars.map((b) => b.datetime)).toEqual(
      ["14:30", "15:30", "16:30", "17:30", "18:30", "19:30", "20:30"].map((t) => `2026-11-20T${t}:00Z`),
    );
    expect(hour.body.bars.map(shape)).toEqual(expectedBars("AAPL", "2026-11-20", 60, "14:30"));
    // The session's minutes sum to its volume, whatever the interval.
    const volume = (b: IntradayBody) => b.bars.reduce((a, x) => a + x.volume, 0);
    expect(volume(hour.body)).toBe(volume(five.body));
  });

  it("reads a session older than the provider's minutes from its own 15m or 1h bars, stored once", async () => {
    // 16 October is 40 days back: no minutes any more, 15-minute bars still (60 days).
    const res = await get("/intraday/AAPL?interval=15m&from=2026-10-16&to=2026-10-16");
    expect(res.body.provider_requests).toBe(1);
    // Summer time: the session opens at 13:30 UTC.
    expect(res.body.bars.map(shape)).toEqual(expectedBars("AAPL", "2026-10-16", 15, "13:30"));
    expect(res.body.bars).toHaveLength(26);
    const id = await listingId("AAPL");
    const [stored] = await withDb((db) =>
      db
        .select({ n: count() })
        .from(intradayBars)
        .where(and(eq(intradayBars.listingId, id), eq(intradayBars.interval, "15m"))),
    );
    expect(stored?.n).toBe(26);
    expect((await get("/intraday/AAPL?interval=15m&from=2026-10-16&to=2026-10-16")).body.provider_requests).toBe(0);

    // Five August: a year's hours are kept (730 days).
    const hours = await get("/intraday/AAPL?interval=1h&from=2026-08-05&to=2026-08-05");
    expect(hours.body.bars.map(shape)).toEqual(expectedBars("AAPL", "2026-08-05", 60, "13:30"));
    expect(hours.body.provider_history).toEqual([
      { interval: "1m", days: 30, from: "2026-10-27" },
      { interval: "1h", days: 730, from: "2024-11-26" },
    ]);
  });

  it("lists sessions beyond every history it never stored, and shows what the stream saved of them", async () => {
    const res = await get("/intraday/AAPL?interval=1h&from=2024-06-03&to=2024-06-03");
    expect(res.status).toBe(200);
    expect(res.body.beyond_history).toEqual(["2024-06-03"]);
    expect(res.body.bars).toEqual([]);
    expect(res.body.provider_requests).toBe(0);
    const id = await listingId("AAPL");
    await withDb((db) =>
      db.insert(pricesIntraday).values(
        [0, 1, 2].map((i) => ({
          listingId: id,
          minute: new Date(Date.parse("2024-06-03T13:30:00Z") + i * 60_000),
          open: String(190 + i),
          high: String(191 + i),
          low: String(189 + i),
          close: String(190.5 + i),
          volume: 100,
          source: "stream_provider",
        })),
      ),
    );
    const streamed = await get("/intraday/AAPL?interval=1h&from=2024-06-03&to=2024-06-03");
    expect(streamed.body.bars.map((b) => ({ ...shape(b), source: b.source }))).toEqual([
      {
        datetime: "2024-06-03T13:30:00Z",
        open: 190,
        high: 193,
        low: 189,
        close: 192.5,
        volume: 300,
        source: "stream_provider",
      },
    ]);
  });

  it("keeps the stream's minutes of a session under way and fills the rest from the provider, every time asked", async () => {
    const id = await listingId("AAPL");
    // The stream saved 16:00 to 16:07 UTC with prices of its own.
    await withDb((db) =>
      db.insert(pricesIntraday).values(
        Array.from({ length: 8 }, (_, i) => ({
          listingId: id,
          minute: new Date(Date.parse("2026-11-25T16:00:00Z") + i * 60_000),
          open: "1.5",
          high: "2.5",
          low: "0.5",
          close: "2",
          volume: 7,
          source: "stream_provider",
        })),
      ),
    );
    const res = await get("/intraday/AAPL?interval=5m");
    expect(res.status).toBe(200);
    expect(res.body.sessions).toEqual(["2026-11-25"]);
    expect(res.headers.get("cache-control")).toBe("private, max-age=60");
    const bars = res.body.bars;
    expect(bars[0]?.datetime).toBe("2026-11-25T14:30:00Z");
    const at = (t: string) => bars.find((b) => b.datetime === `2026-11-25T${t}:00Z`);
    expect(at("16:00")).toMatchObject({
      open: 1.5,
      high: 2.5,
      low: 0.5,
      close: 2,
      volume: 35,
      source: "stream_provider",
    });
    expect(at("16:05")?.source).toBe("delayed_provider+stream_provider");
    expect(at("16:05")?.open).toBe(1.5);
    expect(at("15:55")?.source).toBe("delayed_provider");
    // Up to the noon the simulator started at, at least.
    expect(at("16:55")).toBeDefined();
    // A session under way is never stored as whole: the next request asks again.
    const [covered] = await withDb((db) =>
      db
        .select({ n: count() })
        .from(intradayCoverage)
        .where(and(eq(intradayCoverage.listingId, id), eq(intradayCoverage.day, "2026-11-25"))),
    );
    expect(covered?.n).toBe(0);
    // Asked again within the minute, it is read as stored: one provider request a minute at most.
    const again = await get("/intraday/AAPL?interval=5m");
    expect(again.body.provider_requests).toBe(0);
    expect(again.body.bars).toEqual(bars);
  });

  it("keeps a minute the stream rewrote after the provider stored it, when the provider is asked again", async () => {
    const id = await listingId("AAPL");
    const minute = new Date("2026-11-20T15:00:00Z");
    const before = await get("/intraday/AAPL?interval=1m&from=2026-11-20&to=2026-11-20");
    expect(before.body.bars.find((b) => b.datetime === "2026-11-20T15:00:00Z")?.source).toBe("delayed_provider");
    // The stream's candle of that minute (as the ticker's object writes it), then the session asked of the provider again.
    await withDb((db) =>
      upsertIntradayCandle(
        db,
        id,
        { minute, open: "7", high: "8", low: "6", close: "7.5", volume: 9 },
        "stream_provider",
      ),
    );
    await withDb((db) =>
      db
        .delete(intradayCoverage)
        .where(and(eq(intradayCoverage.listingId, id), eq(intradayCoverage.day, "2026-11-20"))),
    );
    const res = await get("/intraday/AAPL?interval=1m&from=2026-11-20&to=2026-11-20");
    expect(res.body.provider_requests).toBe(1);
    expect(res.body.bars.find((b) => b.datetime === "2026-11-20T15:00:00Z")).toMatchObject({
      open: 7,
      close: 7.5,
      volume: 9,
      source: "stream_provider",
    });
  });

  it("asks again for a session the provider answered empty (a holiday the calendar does not hold)", async () => {
    // Good Friday 2025: the venues' calendars start in 2026, the provider has no bar that day.
    const path = "/intraday/AAPL?interval=1h&from=2025-04-18&to=2025-04-18";
    const first = await get(path);
    expect(first.body.sessions).toEqual(["2025-04-18"]);
    expect(first.body.bars).toEqual([]);
    expect(first.body.provider_requests).toBe(1);
    expect((await get(path)).body.provider_requests).toBe(1);
  });

  it("answers what it has with a warning when the provider fails, and fetches the session on the next request", async () => {
    await fault(sim, "AAPL", "500");
    const failed = await get("/intraday/AAPL?interval=5m&from=2026-11-23&to=2026-11-23");
    expect(failed.status).toBe(200);
    expect(failed.body.bars).toEqual([]);
    expect(failed.body.warning).toContain("HTTP 500");
    expect(failed.headers.get("cache-control")).toBe("private, max-age=60");
    const mended = await get("/intraday/AAPL?interval=5m&from=2026-11-23&to=2026-11-23");
    expect(mended.body.warning).toBeUndefined();
    expect(mended.body.provider_requests).toBe(1);
    expect(mended.body.bars.map(shape)).toEqual(expectedBars("AAPL", "2026-11-23", 5, "14:30"));
  });

  it("gives two requests arriving together for a fresh session the same bars, stored once", async () => {
    const path = "/intraday/AAPL?interval=1m&from=2026-11-18&to=2026-11-18";
    const [a, b] = await Promise.all([get(path), get(path)]);
    expect(a.body.bars).toEqual(b.body.bars);
    expect(a.body.bars.length).toBeGreaterThan(380);
    const id = await listingId("AAPL");
    const [stored] = await withDb((db) =>
      db
        .select({ n: count() })
        .from(pricesIntraday)
        .where(
          and(
            eq(pricesIntraday.listingId, id),
            gte(pricesIntraday.minute, new Date("2026-11-18T14:30:00Z")),
            lt(pricesIntraday.minute, new Date("2026-11-18T21:00:00Z")),
          ),
        ),
    );
    expect(stored?.n).toBe(a.body.bars.length);
  });

  it("serves a London line quoted in pence in pounds, and as CSV", async () => {
    const res = await get("/intraday/SWDA.L?interval=1h&from=2026-11-24&to=2026-11-24");
    expect(res.body.listing.currency).toBe("GBP");
    // London opens at 8:00, UTC in winter.
    expect(res.body.bars.map(shape)).toEqual(expectedBars("SWDA.L", "2026-11-24", 60, "08:00", 0.01));
    const csv = await get<string>("/intraday/SWDA.L?interval=1h&from=2026-11-24&to=2026-11-24&fmt=csv");
    const lines = csv.body.trim().split("\n");
    expect(lines[0]).toBe("Datetime,Open,High,Low,Close,Volume");
    const first = res.body.bars[0];
    expect(lines[1]).toBe(
      `${first?.datetime},${first?.open},${first?.high},${first?.low},${first?.close},${first?.volume}`,
    );
    expect(lines).toHaveLength(res.body.bars.length + 1);
  });

  it("says the market was closed for a holiday window, and refuses what it cannot answer", async () => {
    const closed = await get<ErrorBody>("/intraday/AAPL?interval=5m&from=2026-09-07&to=2026-09-07");
    expect(closed.status).toBe(404);
    expect(closed.body.reason).toContain("market closed");
    expect(closed.body.reason).toContain("Labor Day");
    for (const [query, wanted] of [
      ["interval=2m", "interval"],
      ["interval=5m&from=2026-11-20&to=2026-11-19", "after to"],
      ["interval=1m&from=2026-09-01&to=2026-11-20", "31 days at most"],
      ["interval=5m&from=2026-12-01", "after today"],
      ["interval=5m&from=2026-02-30", "from"],
    ] as const) {
      const res = await get<ErrorBody>(`/intraday/AAPL?${query}`);
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body), query).toContain(wanted);
    }
  });
});
