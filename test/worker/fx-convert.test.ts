import Decimal from "decimal.js";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { EodAnswer, EodBulkBody } from "../../src/routes/eod/schema";
import type { FxSeriesBody } from "../../src/routes/fx/schema";
import type { IntradayBody } from "../../src/routes/intraday/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import type { Quote, QuotesAnswer as QuotesBody } from "../../src/routes/realtime/schema";
import { INTRADAY_SIM_AS_OF } from "../helpers/global-setup";
import { clearFault, fault, resetFxRates, resetTickers } from "../helpers/listings";
import { call } from "../helpers/worker-http";

/**
 * convert= on /eod: every bar equals the listing's own bar times its day's rate as GET /fx serves
 * it, rounded half to even to 6 decimals. Friday 27 November 2026 after Paris's close (17:30) and
 * the ECB's publication (16:00): the bars run through Thursday, the day before.
 */
const AT = "2026-11-27T18:00:00Z";
const ecbSim = inject("ecbSimUrl");
const delayedSim = inject("delayedSimUrl");
const ECB = "ecb_reference_rates";
const PRICES = ["Open", "High", "Low", "Close", "Adj Close"] as const;

const times = (price: number, rate: string) =>
  new Decimal(String(price)).times(rate).toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN).toNumber();

async function ratesOf(pair: string, from: string, to: string) {
  const res = await call<FxSeriesBody>(`/fx/${pair}?from=${from}&to=${to}`, { at: AT });
  expect(res.status).toBe(200);
  return new Map(res.body.data.map((r) => [r.date, r]));
}

beforeAll(async () => {
  await resetFxRates();
  await resetTickers("MC.PA", "SWDA.L");
});

describe("GET /eod/{ticker}?convert=", () => {
  it("/eod/MC.PA?period=1mo&convert=USD: every bar the euro bar times that day's rate", async () => {
    const euro = await call<EodAnswer>("/eod/MC.PA?period=1mo", { at: AT });
    const usd = await call<EodAnswer>("/eod/MC.PA?period=1mo&convert=USD", { at: AT });
    expect(usd.status, JSON.stringify(usd.body).slice(0, 300)).toBe(200);
    expect(usd.body.data.map((b) => b.Date)).toEqual(euro.body.data.map((b) => b.Date));
    expect(usd.body.data.length).toBeGreaterThan(15);
    const rates = await ratesOf("EUR/USD", euro.body.data[0]?.Date ?? "", "2026-11-27");
    usd.body.data.forEach((b, i) => {
      const e = euro.body.data[i];
      const r = rates.get(b.Date);
      expect(r?.carried_forward, b.Date).toBe(false);
      expect(b.fx).toEqual({ rate: r?.rate, published: b.Date, source: ECB, carried_forward: false });
      for (const k of PRICES) expect(b[k], `${b.Date} ${k}`).toBe(times(e?.[k] ?? Number.NaN, r?.rate ?? ""));
      expect(b.Volume).toBe(e?.Volume);
    });
    expect(usd.body.listing.currency).toBe("EUR");
    expect(usd.body.conversion).toMatchObject({ from: "EUR", to: "USD", source: ECB, cross: null, notes: [] });
    expect(usd.body.conversion?.rounding).toContain("half to even to 6 decimals");
    expect(usd.headers.get("x-fx-conversion")).toBe("EUR->USD");
  });

  it("gives weekly and monthly bars resampled from the converted daily bars, and CSV with each bar's rate", async () => {
    const window = "from=2026-10-26&to=2026-11-27";
    const daily = (await call<EodAnswer>(`/eod/MC.PA?${window}&convert=USD`, { at: AT })).body.data;
    const weekly = await call<EodAnswer>(`/eod/MC.PA?${window}&period=weekly&convert=USD`, { at: AT });
    expect(weekly.status).toBe(200);
    expect(weekly.body.data.length).toBe(5);
    for (const w of weekly.body.data) {
      const monday = new Date(`${w.Date}T00:00:00Z`);
      monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
      const end = new Date(monday.getTime() + 6 * 86_400_000).toISOString().slice(0, 10);
      const days = daily.filter((d) => d.Date >= w.Date && d.Date <= end);
      expect(w.Open).toBe(days[0]?.Open);
      expect(w.Close).toBe(days.at(-1)?.Close);
      expect(w["Adj Close"]).toBe(days.at(-1)?.["Adj Close"]);
      expect(w.High).toBe(Math.max(...days.map((d) => d.High)));
      expect(w.Low).toBe(Math.min(...days.map((d) => d.Low)));
      expect(w.fx).toEqual(days.at(-1)?.fx);
    }
    const csv = await call<string>(`/eod/MC.PA?${window}&convert=USD&fmt=csv`, { at: AT });
    const lines = csv.body.trim().split("\n");
    expect(lines[0]).toBe("Date,Open,High,Low,Close,Adj Close,Volume,FX Rate,FX Published");
    const last = daily.at(-1);
    expect(lines.at(-1)).toBe(
      [
        last?.Date,
        last?.Open,
        last?.High,
        last?.Low,
        last?.Close,
        last?.["Adj Close"],
        last?.Volume,
        last?.fx?.rate,
        last?.fx?.published,
      ].join(","),
    );
  });

  it("/eod/SWDA.L?convert=EUR: right from the stored pounds, at the inverse of EUR/GBP", async () => {
    const pounds = await call<EodAnswer>("/eod/SWDA.L?period=1mo", { at: AT });
    const euros = await call<EodAnswer>("/eod/SWDA.L?period=1mo&convert=EUR", { at: AT });
    expect(euros.status).toBe(200);
    expect(pounds.body.listing.currency).toBe("GBP");
    const rates = await ratesOf("GBP/EUR", pounds.body.data[0]?.Date ?? "", "2026-11-27");
    const eurGbp = await ratesOf("EUR/GBP", pounds.body.data[0]?.Date ?? "", "2026-11-27");
    expect(euros.body.data.length).toBe(pounds.body.data.length);
    euros.body.data.forEach((b, i) => {
      const p = pounds.body.data[i];
      const r = rates.get(b.Date)?.rate ?? "";
      // The inverse of the published EUR/GBP, to 10 significant digits.
      expect(r).toBe(
        new Decimal(1)
          .div(eurGbp.get(b.Date)?.rate ?? "")
          .toSignificantDigits(10)
          .toFixed(),
      );
      for (const k of PRICES) expect(b[k], `${b.Date} ${k}`).toBe(times(p?.[k] ?? Number.NaN, r));
    });
    expect(euros.body.conversion).toMatchObject({ from: "GBP", to: "EUR", cross: null });
  });

  it("converts into the listing's own currency at 1, and refuses a currency without rates", async () => {
    const euro = await call<EodAnswer>("/eod/MC.PA?period=5d", { at: AT });
    const same = await call<EodAnswer>("/eod/MC.PA?period=5d&convert=eur", { at: AT });
    expect(same.body.data.map(({ fx, ...b }) => b)).toEqual(euro.body.data);
    expect(same.body.data.every((b) => b.fx?.rate === "1" && b.fx?.source === "identity")).toBe(true);
    const bad = await call<ErrorBody>("/eod/MC.PA?period=5d&convert=XYZ", { at: AT });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('convert "XYZ" has no rates');
  });

  it("answers a bar whose day's rate could not be fetched at the day before's, says so, and is rebuilt once the rate is stored", async () => {
    await resetFxRates();
    // Thursday evening: the rates stored through Thursday.
    expect((await call("/fx/EUR/USD?from=2026-11-23&to=2026-11-26", { at: "2026-11-26T18:00:00Z" })).status).toBe(200);
    // Saturday (Friday's bar is an end-of-day bar now), the ECB down: Friday's bar takes Thursday's
    // rate, and the answer says it waits for Friday's.
    const saturday = "2026-11-28T10:00:00Z";
    await fault(ecbSim, "EXR", "500", 10);
    // The delayed provider's pair would stand in for Friday: failing too, the bar waits.
    await fault(delayedSim, "EURUSD=X", "500", 10);
    const early = await call<EodAnswer>("/eod/MC.PA?from=2026-11-23&to=2026-11-27&convert=USD", { at: saturday });
    expect(early.status).toBe(200);
    expect(early.headers.get("x-fx-provisional")).toBe("true");
    const thursday = early.body.data.find((b) => b.Date === "2026-11-26")?.fx;
    expect(thursday).toMatchObject({ published: "2026-11-26", carried_forward: false });
    expect(early.body.data.find((b) => b.Date === "2026-11-27")?.fx).toEqual({ ...thursday, carried_forward: true });
    expect(early.body.conversion?.notes.join(" ")).toContain(`the newest rates could not be fetched: ${ECB}`);
    // The ECB back, Friday's rate stored by another request: the cached answer goes, the next is rebuilt.
    await clearFault(ecbSim, "EXR");
    await clearFault(delayedSim, "EURUSD=X");
    expect((await call("/fx/EUR/USD?from=2026-11-23&to=2026-11-27", { at: saturday })).status).toBe(200);
    const later = await call<EodAnswer>("/eod/MC.PA?from=2026-11-23&to=2026-11-27&convert=USD", { at: saturday });
    expect(later.body.data.find((b) => b.Date === "2026-11-27")?.fx).toMatchObject({
      published: "2026-11-27",
      carried_forward: false,
    });
    expect(later.headers.get("x-fx-provisional")).toBeNull();
    expect(later.body.conversion?.notes).toEqual([]);
  });
});

describe("GET /quote and /quotes with convert=", () => {
  it("converts a quote at the newest publication out at its time, and a London quote from its pence", async () => {
    // Two reads of the same moment (the simulator's quotes move with the clock): retried until equal.
    let plain: Awaited<ReturnType<typeof call<Quote>>> | undefined;
    let usd: Awaited<ReturnType<typeof call<Quote>>> | undefined;
    for (let i = 0; i < 5 && (!plain || plain.body.timestamp !== usd?.body.timestamp); i++) {
      plain = await call<Quote>("/quote/MC.PA");
      usd = await call<Quote>("/quote/MC.PA?convert=usd");
    }
    expect(usd?.status).toBe(200);
    const fx = usd?.body.fx;
    expect(fx).toMatchObject({ from: "EUR", source: ECB });
    const day = await call<FxSeriesBody>(`/fx/EUR/USD?from=${fx?.published}&to=${fx?.published}`);
    expect(fx?.rate).toBe(day.body.data[0]?.rate);
    expect(usd?.body.currency).toBe("USD");
    for (const k of ["price", "open", "high", "low", "close", "change", "previous_close"] as const) {
      const own = plain?.body[k];
      expect(usd?.body[k], k).toBe(
        own === null || own === undefined ? own : times(Number(own), fx?.rate ?? "").toString(),
      );
    }
    expect(usd?.body.change_pct).toBe(plain?.body.change_pct);

    const london = await call<Quote>("/quote/SWDA.L?convert=EUR");
    expect(london.status).toBe(200);
    // The provider quotes pence: the rate is the pound's / 100.
    expect(london.body.fx?.from).toBe("GBp");
    const gbp = await call<FxSeriesBody>(
      `/fx/GBP/EUR?from=${london.body.fx?.published}&to=${london.body.fx?.published}`,
    );
    expect(london.body.fx?.rate).toBe(new Decimal(gbp.body.data[0]?.rate ?? "").times("0.01").toFixed());
  });

  it("converts each quote of /quotes, and refuses a currency without rates", async () => {
    const res = await call<QuotesBody>("/quotes?tickers=MC.PA,SWDA.L&convert=JPY");
    expect(res.status).toBe(200);
    expect(Object.values(res.body.quotes).map((q) => q?.currency)).toEqual(["JPY", "JPY"]);
    expect(res.body.errors).toEqual({});
    const bad = await call<ErrorBody>("/quotes?tickers=MC.PA&convert=XYZ");
    expect(bad.status).toBe(400);
    expect((await call<ErrorBody>("/quote/MC.PA?convert=XYZ")).status).toBe(400);
  });
});

describe("GET /eod/bulk/{exchange}?convert=", () => {
  it("converts each stored bar of the day at that day's rate, with the rate on the row", async () => {
    // MC.PA's bars are stored by the tests above; Paris's other listings have none (missing).
    const euro = await call<EodAnswer>("/eod/MC.PA?from=2026-11-26&to=2026-11-26", { at: AT });
    const day = await call<EodBulkBody>("/eod/bulk/PAR?date=2026-11-26&convert=USD", { at: AT });
    expect(day.status, JSON.stringify(day.body).slice(0, 300)).toBe(200);
    const row = day.body.data.find((r) => r.ticker === "MC.PA");
    const rate = (await ratesOf("EUR/USD", "2026-11-26", "2026-11-26")).get("2026-11-26")?.rate ?? "";
    const bar = euro.body.data[0];
    expect(row).toMatchObject({
      currency: "USD",
      fx_from: "EUR",
      fx_rate: rate,
      fx_published: "2026-11-26",
      fx_source: ECB,
      fx_carried_forward: false,
    });
    expect(row?.close).toBe(times(bar?.Close ?? Number.NaN, rate));
    expect(row?.adj_close).toBe(times(bar?.["Adj Close"] ?? Number.NaN, rate));
    expect(day.body.conversion).toMatchObject({ to: "USD", source: ECB, notes: [] });
    const csv = await call<string>("/eod/bulk/PAR?date=2026-11-26&convert=USD&fmt=csv", { at: AT });
    expect(csv.body.split("\n")[0]).toBe(
      "Ticker,ISIN,Currency,Date,Open,High,Low,Close,Adj Close,Volume,Source,FX From,FX Rate,FX Published,FX Source",
    );
  });
});

describe("GET /intraday/{ticker}?convert=", () => {
  it("converts every bar of a session at the session day's rate", async () => {
    // The intraday simulator's Wednesday 25 November 2026: Xetra's session has closed (16:30 UTC).
    const opts = { at: INTRADAY_SIM_AS_OF, env: { DELAYED_PROVIDER_BASE_URL: inject("intradaySimUrl") } };
    const path = "/intraday/SAP.DE?interval=1h&from=2026-11-24&to=2026-11-25";
    const euro = await call<IntradayBody>(path, opts);
    const usd = await call<IntradayBody>(`${path}&convert=USD`, opts);
    expect(usd.status, JSON.stringify(usd.body).slice(0, 300)).toBe(200);
    expect(usd.body.bars.length).toBe(euro.body.bars.length);
    expect(usd.body.bars.length).toBeGreaterThan(10);
    const rates = await ratesOf("EUR/USD", "2026-11-24", "2026-11-25");
    usd.body.bars.forEach((b, i) => {
      const e = euro.body.bars[i];
      const day = b.datetime.slice(0, 10);
      const r = rates.get(day)?.rate ?? "";
      expect([b.fx_rate, b.fx_published]).toEqual([r, day]);
      for (const k of ["open", "high", "low", "close"] as const)
        expect(b[k], `${b.datetime} ${k}`).toBe(times(e?.[k] ?? Number.NaN, r));
      expect(b.volume).toBe(e?.volume);
    });
    expect(usd.body.conversion).toMatchObject({ from: "EUR", to: "USD", source: ECB });
  });
});

describe("the workspace's price widgets with convert", () => {
  it("svc_eod and svc_quote show the converted prices, and the empty default the listing's own", async () => {
    const eod = await call<EodAnswer>("/eod/MC.PA?period=1mo&convert=USD", { at: AT });
    const rows = await call<{ close: number; date: string }[]>(
      "/workspace/eod?ticker=MC.PA&period=1mo&convert=USD&raw=true",
      { at: AT },
    );
    expect(rows.status).toBe(200);
    expect(rows.body.map((r) => [r.date, r.close])).toEqual(eod.body.data.map((b) => [b.Date, b.Close]));
    const own = await call<{ close: number }[]>("/workspace/eod?ticker=MC.PA&period=1mo&convert=&raw=true", { at: AT });
    const euro = await call<EodAnswer>("/eod/MC.PA?period=1mo", { at: AT });
    expect(own.body.map((r) => r.close)).toEqual(euro.body.data.map((b) => b.Close));
    const tiles = await call<unknown>("/workspace/quote?ticker=MC.PA&convert=JPY");
    expect(tiles.status).toBe(200);
    expect((await call<ErrorBody>("/workspace/quote?ticker=MC.PA&convert=XYZ")).status).toBe(400);
  });
});
