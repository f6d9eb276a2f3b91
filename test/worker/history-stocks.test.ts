import { beforeAll, describe, expect, inject, it } from "vitest";
import { systemClock } from "../../src/clock";
import { windowOf } from "../../src/domain/periods";
import type { TickerHistory } from "../../src/routes/history/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import type { StocksOverview } from "../../src/routes/stocks/schema";
import { fault, forgetCached } from "../helpers/listings";
import { call } from "../helpers/worker-http";

const yahoo = inject("delayedSimUrl");

interface SimChart {
  chart: {
    result: {
      meta: { regularMarketPrice: number };
      timestamp: number[];
      indicators: { quote: { close: (number | null)[] }[] };
    }[];
  };
}

/** The simulator's own daily closes (to the cent) from a range request. */
async function simCloses(symbol: string, range: string): Promise<{ date: string; close: number }[]> {
  const body = (await (
    await fetch(`${yahoo}/v8/finance/chart/${encodeURIComponent(symbol)}?range=${range}&interval=1d`)
  ).json()) as SimChart;
  const r = body.chart.result[0];
  const out: { date: string; close: number }[] = [];
  r?.timestamp.forEach((t, i) => {
    const c = r.indicators.quote[0]?.close[i];
    if (c !== null && c !== undefined)
      out.push({ date: new Date(t * 1000).toISOString().slice(0, 10), close: Math.round(c * 100) / 100 });
  });
  return out;
}

describe("GET /ticker/{symbol}/history", () => {
  beforeAll(() => forgetCached("eod:*:HISTORY:*"));

  it("serves the provider's bars of a symbol as typed, daily and weekly", async () => {
    const res = await call<TickerHistory>("/ticker/mc.pa/history?period=1mo");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      symbol: "MC.PA",
      currency: "EUR",
      exchange: "PAR",
      interval: "1d",
      source: "delayed_provider",
    });
    // A wider window than asked: the simulator's "1mo" range and the service's calendar month need not start on the same day.
    const sim = await simCloses("MC.PA", "3mo");
    // The service's month: from the same day a month back, through today's session.
    const month = windowOf("1mo", systemClock.today()).from ?? "";
    const inMonth = sim.filter((b) => b.date >= month);
    expect(res.body.data.map((b) => b.date)).toEqual(inMonth.map((b) => b.date));
    expect(res.body.data.map((b) => b.close)).toEqual(inMonth.map((b) => b.close));

    const weekly = await call<TickerHistory>("/ticker/MC.PA/history?period=3mo&interval=1wk");
    expect(weekly.body.interval).toBe("1wk");
    expect(weekly.body.count).toBeGreaterThanOrEqual(12);
    expect(weekly.body.count).toBeLessThanOrEqual(15);
    // Weekly bars are dated by their first session: never two in one ISO week.
    const weeks = weekly.body.data.map((b) => {
      const d = new Date(`${b.date}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
      return d.toISOString().slice(0, 10);
    });
    expect(new Set(weeks).size).toBe(weeks.length);
  });

  it("answers 404 with the reason for an unknown symbol, 503 for a failing provider, 400 for a bad symbol", async () => {
    const unknown = await call<ErrorBody>("/ticker/%5EGSPC/history");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: "No data found",
      message: "No data found for ^GSPC",
      reason: "delayed_provider: unknown symbol ^GSPC",
    });
    await fault(yahoo, "BN.PA", "500", 5);
    const down = await call<ErrorBody>("/ticker/BN.PA/history?period=1mo");
    expect(down.status).toBe(503);
    expect(down.body.message).toContain("HTTP 500");
    expect((await call("/ticker/BAD$SYM/history")).status).toBe(400);
    expect((await call("/ticker/MC.PA/history?interval=1h")).status).toBe(400);
  });
});

describe("GET /stocks (legacy)", () => {
  beforeAll(() => forgetCached("stocks:*"));

  it("lists the configured quotes, reporting a failing symbol without failing the others", async () => {
    await fault(yahoo, "META", "500", 1);
    const partial = await call<StocksOverview>("/stocks");
    expect(partial.status).toBe(200);
    expect(partial.body.count).toBe(9);
    expect(partial.body.errors).toEqual([{ symbol: "META", message: "delayed_provider: HTTP 500" }]);

    const full = await call<StocksOverview>("/stocks");
    expect(full.body.count).toBe(10);
    expect(full.body.stocks.map((s) => s.symbol)).toEqual([
      "AAPL",
      "MSFT",
      "GOOGL",
      "AMZN",
      "NVDA",
      "META",
      "TSLA",
      "MC.PA",
      "SAP.DE",
      "ASML.AS",
    ]);
    for (const s of full.body.stocks) {
      const sim = await simCloses(s.symbol, "5d");
      const last = sim.at(-1);
      const prev = sim.at(-2);
      expect(s.price).toBe(last?.close);
      expect(s.previous_close).toBe(prev?.close);
      // Exact decimal difference, no binary residue.
      expect(s.change).toBe(Number(((last?.close ?? 0) * 100 - (prev?.close ?? 0) * 100).toFixed(0)) / 100);
    }
  });
});
