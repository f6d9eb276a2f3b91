import { describe, expect, it } from "vitest";
import type { Bar } from "../../src/domain/bars";
import { repairBars } from "../../src/domain/price-repair";
import { priceFindings } from "../../src/domain/price-sanity-net";
import { float32Decimal } from "../../src/domain/provider-precision";
import { VENUES } from "../../src/domain/venues";
import aaplRecorded from "../fixtures/recorded/delayed_provider/chart-AAPL-2020-09-to-11-split-div.json";
import ibmRecorded from "../fixtures/recorded/delayed_provider/chart-IBM-5m-5d.json";
import nvdaRecorded from "../fixtures/recorded/delayed_provider/chart-NVDA-2021-split-4-1.json";

type Chart = {
  timestamp: number[];
  indicators: {
    quote: { open: number[]; high: number[]; low: number[]; close: number[]; volume: number[] }[];
    adjclose?: { adjclose: number[] }[];
  };
};
const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

/** A recorded chart's bars as the delayed client reads them (full precision). */
function barsOf(body: unknown): Bar[] {
  const r = (body as { chart: { result: Chart[] } }).chart.result[0] as Chart;
  const q = r.indicators.quote[0] as Chart["indicators"]["quote"][number];
  return r.timestamp.map((t, i) => ({
    date: day(t),
    open: float32Decimal(q.open[i] as number),
    high: float32Decimal(q.high[i] as number),
    low: float32Decimal(q.low[i] as number),
    close: float32Decimal(q.close[i] as number),
    adjClose: float32Decimal(r.indicators.adjclose?.[0]?.adjclose[i] ?? (q.close[i] as number)),
    volume: q.volume[i] as number,
  }));
}

const nvda = barsOf(nvdaRecorded.response.body);
const nvdaSplit = [{ date: "2021-07-20", numerator: 4, denominator: 1 }];
const aapl = barsOf(aaplRecorded.response.body);
const nasdaq = VENUES.NASDAQ;

/** A clean series on Nasdaq's 2026 calendar: every session from 5 January to 30 June, a quiet walk. */
function clean2026(): Bar[] {
  const out: Bar[] = [];
  let price = 100;
  let seed = 7;
  const rnd = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647 - 0.5;
  };
  for (
    let d = new Date("2026-01-05T00:00:00Z");
    d <= new Date("2026-06-30T00:00:00Z");
    d.setUTCDate(d.getUTCDate() + 1)
  ) {
    const date = d.toISOString().slice(0, 10);
    if ([0, 6].includes(d.getUTCDay()) || nasdaq?.holidays[date]) continue;
    const open = price;
    price = Math.round(price * (1 + rnd() * 0.03) * 100) / 100;
    const high = Math.max(open, price) + 0.5;
    const low = Math.min(open, price) - 0.5;
    out.push({ date, open, high, low, close: price, adjClose: price, volume: 1_000_000 + Math.round(rnd() * 200_000) });
  }
  return out;
}

describe("priceFindings on the real provider's charts", () => {
  it("finds nothing in NVDA's year across its 4:1 split, nor in AAPL's autumn across its own", () => {
    expect(nvda).toHaveLength(252);
    expect(priceFindings({ bars: nvda, splits: nvdaSplit, venue: nasdaq })).toEqual([]);
    expect(
      priceFindings({ bars: aapl, splits: [{ date: "2020-08-31", numerator: 4, denominator: 1 }], venue: nasdaq }),
    ).toEqual([]);
  });

  it("without its split event, the adjusted NVDA series still shows no split missing (it has no jump)", () => {
    expect(priceFindings({ bars: nvda, splits: [], venue: nasdaq })).toEqual([]);
  });

  it("reads IBM's recorded 5m bars as nothing impossible", () => {
    const bars = barsOf((ibmRecorded as { response: { body: unknown } }).response.body);
    const found = priceFindings({ bars, splits: [], venue: undefined });
    expect(found.filter((f) => f.kind === "non_positive" || f.kind === "ohlc_inconsistent")).toEqual([]);
  });
});

describe("priceFindings, each glitch found with its date and kind", () => {
  const base = clean2026();
  const at = (date: string) => base.findIndex((b) => b.date === date);

  it("a clean series: nothing", () => {
    expect(priceFindings({ bars: base, splits: [], venue: nasdaq })).toEqual([]);
  });

  it("(a) a 4:1 split missing from history, told from a real fall: a warning, never repaired", () => {
    const i = at("2026-03-02");
    const glitched = base.map((b, k) =>
      k < i
        ? {
            ...b,
            open: b.open * 4,
            high: b.high * 4,
            low: b.low * 4,
            close: b.close * 4,
            adjClose: b.adjClose * 4,
            volume: Math.round(b.volume / 4),
          }
        : b,
    );
    const found = priceFindings({ bars: glitched, splits: [], venue: nasdaq });
    expect(found.map((f) => [f.date, f.kind, f.evidence.ratio])).toEqual([["2026-03-02", "split_missing", 4]]);
    // With no split stored, the prices and volumes are evidence, not proof: nothing is changed.
    expect(repairBars(glitched, found)).toEqual({ bars: glitched, repaired: [] });
    // A real fall of three quarters: the price jumps, the share count does not.
    const fall = base.map((b, k) =>
      k < i
        ? { ...b, open: b.open * 4, high: b.high * 4, low: b.low * 4, close: b.close * 4, adjClose: b.adjClose * 4 }
        : b,
    );
    expect(priceFindings({ bars: fall, splits: [], venue: nasdaq })).toEqual([]);
    // Nor a crash whose volume swells ten times for the weeks after: not the ratio's step.
    const crash = fall.map((b, k) => (k >= i && k < i + 10 ? { ...b, volume: b.volume * 10 } : b));
    expect(priceFindings({ bars: crash, splits: [], venue: nasdaq })).toEqual([]);
  });

  it("(b) a split applied twice, and one stored but not applied", () => {
    const i = at("2026-03-02");
    const splits = [{ date: "2026-03-02", numerator: 2, denominator: 1 }];
    const twice = base.map((b, k) =>
      k < i
        ? { ...b, open: b.open / 2, high: b.high / 2, low: b.low / 2, close: b.close / 2, adjClose: b.adjClose / 2 }
        : b,
    );
    expect(priceFindings({ bars: twice, splits, venue: nasdaq }).map((f) => [f.date, f.kind])).toEqual([
      ["2026-03-02", "split_doubled"],
    ]);
    expect(repairBars(twice, priceFindings({ bars: twice, splits, venue: nasdaq })).bars.map((b) => b.close)).toEqual(
      base.map((b) => b.close),
    );
    const never = base.map((b, k) =>
      k < i
        ? { ...b, open: b.open * 2, high: b.high * 2, low: b.low * 2, close: b.close * 2, adjClose: b.adjClose * 2 }
        : b,
    );
    const unapplied = priceFindings({ bars: never, splits, venue: nasdaq });
    expect(unapplied.map((f) => [f.date, f.kind, f.evidence.event])).toEqual([
      ["2026-03-02", "split_unapplied", "2:1"],
    ]);
    // The stored split proves it: the bars before it are divided by its ratio.
    const { bars, repaired } = repairBars(never, unapplied);
    expect(bars.map((b) => b.close)).toEqual(base.map((b) => b.close));
    expect(repaired).toEqual([
      {
        date: "2026-03-02",
        kind: "split_unapplied",
        change: `${i} session(s) before 2026-03-02: prices divided by 2, volumes the other way`,
      },
    ]);
  });

  it("(c) one bar a hundred times off, either way, scaled back", () => {
    const i = at("2026-04-15");
    const high = base.map((b, k) =>
      k === i
        ? {
            ...b,
            open: b.open * 100,
            high: b.high * 100,
            low: b.low * 100,
            close: b.close * 100,
            adjClose: b.adjClose * 100,
          }
        : b,
    );
    const found = priceFindings({ bars: high, splits: [], venue: nasdaq });
    expect(found.map((f) => [f.date, f.kind, f.evidence.factor])).toEqual([["2026-04-15", "unit_100x", 100]]);
    expect(repairBars(high, found).bars[i]?.close).toBeCloseTo(base[i]?.close ?? 0, 8);
    // The close alone a hundredth: found as such (not as contradicting OHLC), and scaled back alone.
    const low = base.map((b, k) => (k === i ? { ...b, close: b.close / 100 } : b));
    const lowFound = priceFindings({ bars: low, splits: [], venue: nasdaq });
    expect(lowFound.map((f) => [f.date, f.kind, f.evidence.fields, f.evidence.factor])).toEqual([
      ["2026-04-15", "unit_100x", "close", 0.01],
    ]);
    expect(repairBars(low, lowFound).bars[i]).toEqual({ ...base[i], close: expect.closeTo(base[i]?.close ?? 0, 8) });
    // Three sessions in a row, each found.
    const run = base.map((b, k) =>
      k >= i && k < i + 3
        ? { ...b, open: b.open * 100, high: b.high * 100, low: b.low * 100, close: b.close * 100 }
        : b,
    );
    expect(priceFindings({ bars: run, splits: [], venue: nasdaq }).map((f) => f.date)).toEqual(
      base.slice(i, i + 3).map((b) => b.date),
    );
  });

  it("(d) a bar on a holiday and on a weekend, removed; (f) a missing session with its early close", () => {
    const withClosed = [
      ...base,
      { ...(base.at(-1) as Bar), date: "2026-07-03" },
      { ...(base.at(-1) as Bar), date: "2026-07-04" },
    ];
    const found = priceFindings({ bars: withClosed, splits: [], venue: nasdaq });
    expect(found.filter((f) => f.kind === "closed_day_bar").map((f) => [f.date, f.evidence.closed])).toEqual([
      ["2026-07-03", "holiday: Independence Day (observed)"],
      ["2026-07-04", "weekend"],
    ]);
    expect(repairBars(withClosed, found).bars).toHaveLength(base.length);
    const gap = base.filter((b) => b.date !== "2026-02-17");
    expect(priceFindings({ bars: gap, splits: [], venue: nasdaq })).toEqual([
      { date: "2026-02-17", kind: "missing_session", evidence: { venue: "NASDAQ" } },
    ]);
    // Outside the years the calendar holds, a gap proves nothing.
    const old = base
      .map((b) => ({ ...b, date: `2019${b.date.slice(4)}` }))
      .filter((b) => !["2019-02-17", "2019-02-18"].includes(b.date));
    expect(priceFindings({ bars: old, splits: [], venue: nasdaq }).filter((f) => f.kind === "missing_session")).toEqual(
      [],
    );
  });

  it("(e) a session repeated with no volume; a flat untraded one is none", () => {
    const i = at("2026-05-12");
    const dup = base.map((b, k) => (k === i ? { ...(base[i - 1] as Bar), date: b.date, volume: 0 } : b));
    expect(priceFindings({ bars: dup, splits: [], venue: nasdaq })).toEqual([
      { date: "2026-05-12", kind: "duplicate_session", evidence: { repeats: base[i - 1]?.date ?? "" } },
    ]);
    // A flat session nobody traded, then its price repeated with no volume: no duplicate.
    const flat = base.map((b, k) =>
      k === i - 1
        ? { ...b, open: b.close, high: b.close, low: b.close }
        : k === i
          ? {
              ...b,
              open: base[i - 1]?.close ?? 0,
              high: base[i - 1]?.close ?? 0,
              low: base[i - 1]?.close ?? 0,
              close: base[i - 1]?.close ?? 0,
              volume: 0,
            }
          : b,
    );
    expect(
      priceFindings({ bars: flat, splits: [], venue: nasdaq }).filter((f) => f.kind === "duplicate_session"),
    ).toEqual([]);
  });

  it("(g) OHLC that contradict themselves, widened; (h) a non-positive price or negative volume", () => {
    const i = at("2026-06-01");
    const b = base[i] as Bar;
    const swapped = base.map((x, k) => (k === i ? { ...x, high: b.low, low: b.high } : x));
    const found = priceFindings({ bars: swapped, splits: [], venue: nasdaq });
    expect(found.map((f) => [f.date, f.kind])).toEqual([["2026-06-01", "ohlc_inconsistent"]]);
    const fixed = repairBars(swapped, found).bars[i];
    expect([fixed?.high, fixed?.low]).toEqual([b.high, b.low]);
    const zero = base.map((x, k) => (k === i ? { ...x, low: 0, volume: -100 } : x));
    expect(priceFindings({ bars: zero, splits: [], venue: nasdaq })).toEqual([
      { date: "2026-06-01", kind: "non_positive", evidence: { fields: "low,volume", low: 0, volume: -100 } },
    ]);
  });
});
