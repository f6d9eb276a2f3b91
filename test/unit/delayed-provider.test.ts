import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { deadlineIn, pinnedClock } from "../../src/clock";
import { DelayedProviderClient } from "../../src/providers/delayed/client";
import { ProviderError } from "../../src/providers/errors";
import { dailyHistory, goodFriday } from "../../tools/sandbox/market-data";
import { startYahooSim, type YahooSim } from "../../tools/sandbox/yahoo";

const TODAY = "2026-11-25";

describe("delayed-provider client against the Yahoo simulator", () => {
  let sim: YahooSim;
  let client: DelayedProviderClient;
  const fault = (body: unknown) => fetch(`${sim.url}/__sandbox/faults`, { method: "POST", body: JSON.stringify(body) });

  beforeAll(async () => {
    sim = await startYahooSim({ clock: pinnedClock(TODAY) });
    client = new DelayedProviderClient({ baseUrl: sim.url, timeoutMs: 1500 });
  });
  afterEach(async () => {
    await fetch(`${sim.url}/__sandbox/faults`, { method: "DELETE" });
  });
  afterAll(() => sim.close());

  it("reads daily bars with exact prices (float32 noise removed), adjusted closes and no null slots", async () => {
    const h = await client.dailyHistory("MC.PA", "2025-11-25", "2026-11-24");
    expect(h.currency).toBe("EUR");
    expect(h.symbol).toBe("MC.PA");
    const truth = dailyHistory("MC.PA", "2026-11-24").bars.filter((b) => b.date >= "2025-11-25" && !b.missing);
    expect(h.bars.length).toBe(truth.length);
    expect(h.bars.length).toBeGreaterThan(240);
    for (let i = 0; i < truth.length; i++) {
      const t = truth[i];
      const b = h.bars[i];
      expect(b, t?.date).toEqual({
        date: t?.date,
        open: t?.open,
        high: t?.high,
        low: t?.low,
        close: t?.close,
        adjClose: b?.adjClose,
        volume: t?.volume,
      });
      // The adjusted close as the float32 the provider sent (the simulator's 6 decimals do not fit one).
      expect(Math.fround(b?.adjClose ?? 0), t?.date).toBe(Math.fround(t?.adjclose ?? 0));
    }
    // Dividends make the adjusted close differ from the close before an ex-date.
    expect(dailyHistory("MC.PA", "2026-11-24").dividends.length).toBeGreaterThan(30);
    expect(h.bars.some((b) => b.adjClose < b.close)).toBe(true);
    expect(h.bars.at(-1)?.adjClose).toBe(h.bars.at(-1)?.close);
  });

  it("serves split-adjusted history across AAPL's 4:1 split", async () => {
    const h = await client.dailyHistory("AAPL", "2020-08-20", "2020-09-10");
    const before = h.bars.find((b) => b.date === "2020-08-28");
    const after = h.bars.find((b) => b.date === "2020-08-31");
    expect(before && after).toBeTruthy();
    // No 4x jump on the split day: the history is adjusted, and the split is announced as an event.
    expect(Math.abs((after?.open ?? 0) / (before?.close ?? 1) - 1)).toBeLessThan(0.2);
    const raw = (await (
      await fetch(
        `${sim.url}/v8/finance/chart/AAPL?period1=1597881600&period2=1599696000&interval=1d&events=div%7Csplit`,
      )
    ).json()) as { chart: { result: { events: { splits: Record<string, unknown> } }[] } };
    expect(Object.values(raw.chart.result[0]?.events.splits ?? {})).toEqual([
      { date: 1598884200, numerator: 4, denominator: 1, splitRatio: "4:1" },
    ]);
  });

  it("finds the listings of an ISIN, and nothing for an ISIN the identifier index lacks", async () => {
    const hits = await client.search("NL0011585146");
    expect(hits.map((h) => [h.symbol, h.exchange]).sort()).toEqual([
      ["RACE", "NYQ"],
      ["RACE.MI", "MIL"],
    ]);
    expect(await client.search("IE00B4L5Y983")).toEqual([]);
    const byName = await client.search("iShares Core MSCI World");
    expect(byName.map((h) => h.symbol).sort()).toEqual(["EUNL.DE", "IWDA.AS", "SWDA.L"]);
  });

  it("maps each failure to a ProviderError of its kind", async () => {
    const failure = async (p: Promise<unknown>) => {
      const err = await p.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ProviderError);
      return (err as ProviderError).failure;
    };
    expect(await failure(client.dailyHistory("NOPE", "2026-01-01", "2026-02-01"))).toBe("not_found");
    await fault({ symbol: "AAPL", mode: "500", times: 1 });
    expect(await failure(client.dailyHistory("AAPL", "2026-01-01", "2026-02-01"))).toBe("unavailable");
    await fault({ symbol: "AAPL", mode: "malformed", times: 1 });
    expect(await failure(client.dailyHistory("AAPL", "2026-01-01", "2026-02-01"))).toBe("bad_response");
    await fault({ symbol: "AAPL", mode: "ratelimit", times: 1 });
    expect(await failure(client.dailyHistory("AAPL", "2026-01-01", "2026-02-01"))).toBe("rate_limited");
    await fault({ symbol: "AAPL", mode: "timeout", times: 1 });
    const started = Date.now();
    expect(await failure(client.dailyHistory("AAPL", "2026-01-01", "2026-02-01"))).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(5000);
    // Faults are one-shot here: the next call succeeds.
    expect((await client.dailyHistory("AAPL", "2026-01-01", "2026-02-01")).bars.length).toBeGreaterThan(15);
  });

  it("times out a body that stalls after the headers, and asks nothing once the request's deadline has passed", async () => {
    await fault({ symbol: "AAPL", mode: "stall", times: 1 });
    const err = await client.dailyHistory("AAPL", "2026-01-01", "2026-02-01").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ failure: "timeout", detail: "no complete answer within 1500 ms" });

    const late = new DelayedProviderClient({
      baseUrl: sim.url,
      timeoutMs: 1500,
      deadline: deadlineIn(pinnedClock(TODAY), 0),
    });
    const before = (await (await fetch(`${sim.url}/__sandbox/requests`)).json()) as Record<string, number>;
    await expect(late.quote("AAPL")).rejects.toMatchObject({
      failure: "deadline",
      detail: "not asked: the request's deadline had passed",
    });
    const after = (await (await fetch(`${sim.url}/__sandbox/requests`)).json()) as Record<string, number>;
    expect(after["chart AAPL"]).toBe(before["chart AAPL"]);
  });

  it("takes the session's high, low and volume from the chart meta for a quote", async () => {
    const q = await client.quote("SAP.DE");
    const last = dailyHistory("SAP.DE", "2026-11-24")
      .bars.filter((b) => !b.missing)
      .at(-1);
    expect(q).toMatchObject({
      symbol: "SAP.DE",
      price: last?.close,
      high: last?.high,
      low: last?.low,
      volume: last?.volume,
    });
  });

  it("serves no bar on Good Friday, which every venue of the catalogue closes, nor on a venue's own holidays", async () => {
    expect([goodFriday(2024), goodFriday(2025), goodFriday(2026)]).toEqual(["2024-03-29", "2025-04-18", "2026-04-03"]);
    const h = await client.dailyHistory("MC.PA", "2026-03-30", "2026-04-07");
    // Paris closes on Easter Monday too (Euronext's calendar); Nasdaq does not.
    expect(h.bars.map((b) => b.date)).toEqual(["2026-03-30", "2026-03-31", "2026-04-01", "2026-04-02", "2026-04-07"]);
    const us = await client.dailyHistory("AAPL", "2026-04-02", "2026-04-07");
    expect(us.bars.map((b) => b.date)).toEqual(["2026-04-02", "2026-04-06", "2026-04-07"]);
    // Independence Day (observed) on Nasdaq, Friday 3 July 2026.
    const july = await client.dailyHistory("AAPL", "2026-07-02", "2026-07-06");
    expect(july.bars.map((b) => b.date)).toEqual(["2026-07-02", "2026-07-06"]);
  });

  it("answers an empty history for a window without sessions", async () => {
    const h = await client.dailyHistory("SAP.DE", "2026-11-28", "2026-11-29");
    expect(h.bars).toEqual([]);
    expect(h.currency).toBe("EUR");
  });
});
