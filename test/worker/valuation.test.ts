import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import Decimal from "decimal.js";
import { beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { storedRate } from "../../src/db/repositories/macro";
import { buildDeps } from "../../src/deps";
import worker from "../../src/index";
import type { DcfResultBody, SensitivityBody } from "../../src/routes/dcf/schema";
import type { EodAnswer } from "../../src/routes/eod/schema";
import type { DeepFundamentalsAnswer } from "../../src/routes/fundamentals/schema";
import type { FxSeriesBody } from "../../src/routes/fx/schema";
import type { MacroRatesBody } from "../../src/routes/macro/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { dgs10On, monthlyYieldOn } from "../../tools/sandbox/fred";
import { READ_ONLY_KEY } from "../helpers/keys";
import {
  clearFault,
  fault,
  forgetCached,
  resetFxRates,
  resetMacroRates,
  resetTickers,
  simRequests,
} from "../helpers/listings";
import { call } from "../helpers/worker-http";

/**
 * The macro rate and the valuation in one file: both read the one stored risk-free rate, which these
 * tests set and forget (test files run side by side).
 */
const fred = inject("fredSimUrl");
const ecbSim = inject("ecbSimUrl");
const delayedSim = inject("delayedSimUrl");
const AT = "2026-11-27T18:00:00Z";
const hoursAfter = (h: number) => new Date(Date.parse(AT) + h * 3_600_000).toISOString();
const ratio = (percent: string) => new Decimal(percent).div(100).toFixed();
const asked = async () => (await simRequests(fred))["observations DGS10"] ?? 0;

async function stored() {
  const deps = buildDeps(env);
  const { db } = deps;
  try {
    return await storedRate(db, "DGS10");
  } finally {
    await deps.close();
  }
}

describe("GET /macro/rates", () => {
  beforeEach(resetMacroRates);

  it("reads DGS10 from the macro provider, steps over the holiday's '.', answers a ratio string, then from the cache", async () => {
    // The simulator lists 2026-11-26 (Thanksgiving) as ".": the newest real observation is the 25th's.
    expect(dgs10On("2026-11-26")).toBe(".");
    const res = await call<MacroRatesBody>("/macro/rates", { at: AT });
    expect(res.status).toBe(200);
    expect(res.body.risk_free_rate).toEqual({
      series_id: "DGS10",
      label: "Market Yield on U.S. Treasury Securities at 10-Year Constant Maturity",
      value: ratio(dgs10On("2026-11-25")),
      unit: "percent",
      observation_date: "2026-11-25",
      currency: "USD",
      frequency: "daily",
    });
    expect(res.body.risk_free_rate?.value).toMatch(/^0\.0\d+$/);
    expect(res.body.meta).toEqual({ fetched_at: expect.any(String), cache_hit: false, stale: false });
    expectReadAt(res.body.meta.fetched_at, AT);
    const row = await stored();
    expect([row?.observationDate, new Decimal(row?.value ?? "0").toFixed()]).toEqual([
      "2026-11-25",
      ratio(dgs10On("2026-11-25")),
    ]);
    const again = await call<MacroRatesBody>("/macro/rates", { at: AT });
    expect(again.body.meta.cache_hit).toBe(true);
    expect(again.body.risk_free_rate).toEqual(res.body.risk_free_rate);
  });

  it("answers a value read less than 6 hours ago from the database, without asking the provider", async () => {
    await call("/macro/rates", { at: AT });
    await resetMacroCacheOnly();
    const before = await asked();
    const res = await call<MacroRatesBody>("/macro/rates", { at: hoursAfter(5) });
    expect(await asked()).toBe(before);
    expect(res.body.meta).toMatchObject({ stale: false, cache_hit: false });
    expectReadAt(res.body.meta.fetched_at, AT);
  });

  it("with the provider failing, answers the older stored value, marked stale with the reason, kept 5 minutes (not asked by every request)", async () => {
    await call("/macro/rates", { at: AT });
    await resetMacroCacheOnly();
    await fault(fred, "DGS10", "500", 1000);
    const res = await call<MacroRatesBody>("/macro/rates", { at: hoursAfter(7) });
    expect(res.status).toBe(200);
    expect(res.body.risk_free_rate?.value).toBe(ratio(dgs10On("2026-11-25")));
    expect(res.body.meta).toMatchObject({ stale: true, cache_hit: false });
    expect(res.body.meta.note).toBe("macro_provider: HTTP 500");
    const before = await asked();
    const again = await call<MacroRatesBody>("/macro/rates", { at: hoursAfter(7) });
    expect(again.body.meta).toMatchObject({ cache_hit: true, stale: true, note: "macro_provider: HTTP 500" });
    expect(await asked()).toBe(before);
  });

  it("with nothing stored and the provider failing, risk_free_rate is null and the answer says why", async () => {
    await fault(fred, "DGS10", "ratelimit", 1000);
    const res = await call<MacroRatesBody>("/macro/rates", { at: AT });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      risk_free_rate: null,
      meta: { fetched_at: null, cache_hit: false, stale: false, note: "macro_provider: rate limit reached (HTTP 429)" },
    });
  });

  it("names a refused key without echoing it, and does not ask without a key", async () => {
    const wrong = "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz";
    const refused = await call<MacroRatesBody>("/macro/rates", { at: AT, env: { MACRO_API_KEY: wrong } });
    expect(refused.body.meta.note).toBe("macro_provider: the API key was refused (MACRO_API_KEY)");
    expect(JSON.stringify(refused.body)).not.toContain(wrong);
    await resetMacroCacheOnly();
    const before = await asked();
    const none = await call<MacroRatesBody>("/macro/rates", { at: AT, env: { MACRO_API_KEY: "" } });
    expect(none.body.risk_free_rate).toBeNull();
    expect(none.body.meta.note).toBe("macro_provider not asked: MACRO_API_KEY is not set");
    expect(await asked()).toBe(before);
  });

  it("is refreshed by the daily Cron Trigger through the Workers runtime's scheduled handler", async () => {
    expect(await stored()).toBeNull();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "15 6 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await stored())?.observationDate).toBe("2026-11-25");
  });
});

describe("GET /macro/rates?currency=", () => {
  beforeEach(resetMacroRates);

  it("gives each currency its own 10-year government yield, monthly, with its date; a currency without one is a 400", async () => {
    const eur = await call<MacroRatesBody>("/macro/rates?currency=eur", { at: AT });
    expect(eur.status).toBe(200);
    // The OECD's series run a month behind: October's is the newest on 27 November.
    expect(eur.body.risk_free_rate).toEqual({
      series_id: "IRLTLT01DEM156N",
      label: "Long-Term Government Bond Yields: 10-Year: Main (Including Benchmark) for Germany",
      value: ratio(monthlyYieldOn("IRLTLT01DEM156N", "2026-10-01")),
      unit: "percent",
      observation_date: "2026-10-01",
      currency: "EUR",
      frequency: "monthly",
    });
    const gbp = await call<MacroRatesBody>("/macro/rates?currency=GBP", { at: AT });
    expect(gbp.body.risk_free_rate).toMatchObject({ series_id: "IRLTLT01GBM156N", currency: "GBP" });
    expect(gbp.body.risk_free_rate?.value).toBe(ratio(monthlyYieldOn("IRLTLT01GBM156N", "2026-10-01")));
    // The default is still the spec's: the US Treasury's.
    expect((await call<MacroRatesBody>("/macro/rates", { at: AT })).body.risk_free_rate?.series_id).toBe("DGS10");
    const hkd = await call<ErrorBody>("/macro/rates?currency=HKD", { at: AT });
    expect(hkd.status).toBe(400);
    expect(hkd.body.message).toContain('no long-term government yield of "HKD"');
    expect((await call<ErrorBody>("/macro/rates?currency=EURO", { at: AT })).status).toBe(400);
  });
});

/** The pinned clock runs on from its pin (an app per pin, kept across tests): read within a minute of `at`. */
function expectReadAt(fetchedAt: string | null, at: string) {
  const ms = Date.parse(fetchedAt ?? "") - Date.parse(at);
  expect(ms, String(fetchedAt)).toBeGreaterThanOrEqual(0);
  expect(ms, String(fetchedAt)).toBeLessThan(60_000);
}

async function resetMacroCacheOnly() {
  await buildDeps(env).cache.deletePattern("macro:*");
}

/** Tickers of the valuation tests: a dividend payer, a non-payer, a loss-maker, negative book equity, no beta. */
const PAYER = "DSY.PA";
const NON_PAYER = "AMZN";
const LOSS_MAKER = "RKLB";
const NEGATIVE_EQUITY = "SBUX";
const NO_BETA = "CRWV";
const NEVER_ENRICHED = "CAP.PA";
/** ASML's New York line: statements in euros, price in dollars. */
const OTHER_CURRENCY = "ASML";

const D = (x: string | null | undefined) => new Decimal(x ?? "NaN");
/** |a - b| <= tol, shown with both values when it fails. */
function close(a: Decimal, b: Decimal, tol: number, what: string) {
  expect(a.minus(b).abs().toNumber(), `${what}: ${a.toFixed()} vs ${b.toFixed()}`).toBeLessThanOrEqual(tol);
}
const sum = (xs: string[]) => xs.reduce((a, x) => a.plus(x), new Decimal(0));

async function enrich(ticker: string) {
  const res = await call<DeepFundamentalsAnswer>(`/fundamental/deep?ticker=${ticker}&refresh=true`, { at: AT });
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  expect(res.body.meta.source).toBe("delayed_provider");
  return res.body;
}

const dcf = (path: string, body?: unknown, key?: string) =>
  call<DcfResultBody>(path, { at: AT, method: body === undefined ? "GET" : "POST", body, key });

/**
 * Every number of a model follows from the others in the answer: the present values from the
 * projected ones at the rate shown, the terminal value from the last projected one, the value per
 * share from those (figures are shown to 4 decimals, hence the tolerances).
 */
function expectReproducible(r: DcfResultBody, model: "fcf" | "eps" | "ddm") {
  const m = r.models[model];
  if (!m) throw new Error(`no ${model} model in the answer`);
  const rate = D(m.discount_rate);
  expect(m.discount_rate).toBe(model === "fcf" ? r.wacc.wacc : r.wacc.cost_of_equity);
  expect(m.projected_values).toHaveLength(r.assumptions.projection_years);
  for (const [i, p] of m.projected_values.entries())
    close(D(m.present_values[i]), D(p).div(rate.plus(1).pow(i + 1)), 0.0001, `${model} present value ${i + 1}`);
  const last = D(m.projected_values.at(-1));
  const n = m.projected_values.length;
  const value = D(m.intrinsic_value_per_share);
  if (model === "eps") {
    close(D(m.terminal_value), last.times(D(m.inputs.terminal_pe)), 0.01, "eps terminal value");
    close(D(m.pv_terminal), D(m.terminal_value).div(rate.plus(1).pow(n)), 0.0001, "eps pv terminal");
    close(value, D(m.pv_terminal).plus(D(m.inputs.payout_ratio).times(sum(m.present_values))), 0.001, "eps value");
    return;
  }
  const g = D(m.inputs.terminal_growth);
  close(
    D(m.terminal_value),
    last.times(g.plus(1)).div(rate.minus(g)),
    last.abs().toNumber() * 1e-6 + 0.01,
    `${model} TV`,
  );
  close(D(m.pv_terminal), D(m.terminal_value).div(rate.plus(1).pow(n)), 0.0001, `${model} pv terminal`);
  if (model === "ddm") {
    close(value, sum(m.present_values).plus(D(m.pv_terminal)), 0.001, "ddm value");
    return;
  }
  // fcf: the base is the mean of the years shown, grown at the growth shown.
  const years = m.base_years ?? [];
  close(D(m.inputs.base_cash_flow), sum(years.map((y) => y.free_cash_flow)).div(years.length), 0.0001, "fcf base");
  close(D(m.projected_values[0]), D(m.inputs.base_cash_flow).times(D(m.inputs.growth).plus(1)), 0.0001, "fcf year 1");
  const equity = sum(m.present_values).plus(D(m.pv_terminal)).minus(D(m.inputs.net_debt));
  close(value, equity.div(D(m.inputs.shares_outstanding)), 0.0001, "fcf value per share");
  close(D(m.upside_pct), value.div(D(r.current_price)).minus(1).times(100), 0.01, "fcf upside");
}

describe("valuation (DCF)", () => {
  beforeAll(async () => {
    await resetTickers(PAYER, NON_PAYER, LOSS_MAKER, NEGATIVE_EQUITY, NO_BETA, NEVER_ENRICHED);
    await resetMacroRates();
    for (const t of [PAYER, NON_PAYER, LOSS_MAKER, NEGATIVE_EQUITY, NO_BETA]) await enrich(t);
  });

  it("a ticker never enriched answers 404 naming the missing data, on every route", async () => {
    for (const [path, body] of [
      [`/dcf/${NEVER_ENRICHED}`, undefined],
      [`/dcf/${NEVER_ENRICHED}`, { models: ["fcf"] }],
      [`/dcf/${NEVER_ENRICHED}/compare`, undefined],
      [`/dcf/${NEVER_ENRICHED}/sensitivity`, undefined],
    ] as const) {
      const res = await call<ErrorBody>(path, { at: AT, method: body ? "POST" : "GET", body });
      expect(res.status, path).toBe(404);
      expect(res.body.message).toBe(`No fundamentals stored for ${NEVER_ENRICHED}`);
      expect(res.body.reason).toContain("missing: highlights, annual statements");
      expect(res.body.reason).toContain(`call GET /fundamental/deep?ticker=${NEVER_ENRICHED} first`);
    }
  });

  it("POST with the three models: every figure recomputes from the others, and the consensus is their weighted mean", async () => {
    const res = await dcf(`/dcf/${PAYER}`, { models: ["fcf", "eps", "ddm"] });
    expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
    const r = res.body;
    for (const m of ["fcf", "eps", "ddm"] as const) {
      expect(r.models[m]?.intrinsic_value_per_share, `${m}: ${r.models[m]?.reason}`).not.toBeNull();
      expectReproducible(r, m);
    }
    // The WACC from its parts (inside the 5-20 % bounds here), the CAPM cost of equity from the rate shown.
    const w = r.wacc;
    // A euro listing reporting in euros discounts at the euro's rate: Germany's 10-year yield of October.
    expect(w.risk_free_rate_source).toBe("fred_cached");
    expect(w.risk_free_rate).toBe(ratio(monthlyYieldOn("IRLTLT01DEM156N", "2026-10-01")));
    expect([w.risk_free_rate_series, w.risk_free_rate_currency, w.risk_free_rate_date]).toEqual([
      "IRLTLT01DEM156N",
      "EUR",
      "2026-10-01",
    ]);
    expect(r.data.statements_currency).toBe("EUR");
    expect(D(w.cost_of_equity).toFixed()).toBe(
      D(w.risk_free_rate)
        .plus(D(w.beta_used).times(D(w.equity_risk_premium)))
        .toFixed(),
    );
    const parts = D(w.weight_equity)
      .times(D(w.cost_of_equity))
      .plus(
        D(w.weight_debt)
          .times(D(w.cost_of_debt))
          .times(new Decimal(1).minus(D(w.tax_rate))),
      );
    close(D(w.wacc), parts, 0.000001, "wacc");
    expect(w.cost_of_debt_source).toBe("calculated");
    expect(w.warnings).toEqual([]);
    // Default weights 50/30/20 over three valued models.
    expect(r.consensus_weights).toEqual({ fcf: "0.5", eps: "0.3", ddm: "0.2" });
    const mean = (["fcf", "eps", "ddm"] as const).reduce(
      (a, m) => a.plus(D(r.consensus_weights[m]).times(D(r.models[m]?.intrinsic_value_per_share))),
      new Decimal(0),
    );
    close(D(r.consensus_value), mean, 0.0001, "consensus");
    expect(r.analyst_target).toMatch(/^\d+(\.\d+)?$/);
    expect(r.solvency.debt_to_equity_ratio).toMatch(/^\d+(\.\d+)?$/);
    expect(r.data.fundamentals_fetch_date).toBe("2026-11-27");
  });

  it("GET values fcf alone with the defaults (consensus = fcf), cached 6 hours unless force_refresh", async () => {
    const first = await dcf(`/dcf/${PAYER}?force_refresh=true`);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body.models)).toEqual(["fcf"]);
    expect(first.body.consensus_value).toBe(first.body.models.fcf?.intrinsic_value_per_share);
    expect(first.body.assumptions).toEqual({
      models: ["fcf"],
      projection_years: 5,
      terminal_growth_rate: "0.025",
      model_weights: { fcf: 0.5 },
    });
    expectReproducible(first.body, "fcf");
    const again = await dcf(`/dcf/${PAYER}`);
    expect(again.body.cache_hit).toBe(true);
    expect({ ...again.body, cache_hit: false }).toEqual(first.body);
    expect((await dcf(`/dcf/${PAYER}?force_refresh=true`)).body.cache_hit).toBe(false);
    // A new enrichment drops the valuations computed from the figures it replaces.
    expect((await dcf(`/dcf/${PAYER}`)).body.cache_hit).toBe(true);
    await enrich(PAYER);
    expect((await dcf(`/dcf/${PAYER}`)).body.cache_hit).toBe(false);
  });

  it("uses the listing's last stored daily close as the price once prices are stored", async () => {
    const ingest = await call("/historical/ingest", {
      at: AT,
      method: "POST",
      body: { tickers: [PAYER], period: "1mo" },
    });
    expect(ingest.status).toBe(200);
    const eod = await call<EodAnswer>(`/eod/${PAYER}?fmt=json&period=1mo`, { at: AT });
    const last = eod.body.data.at(-1);
    const r = (await dcf(`/dcf/${PAYER}`, { models: ["fcf"] })).body;
    expect([r.price_date, Number(r.current_price)]).toEqual([last?.Date, last?.Close]);
    expect(r.warnings).toEqual([]);
  });

  it("a company reporting in euros and trading in dollars is valued in euros, its price converted at its day's rate", async () => {
    await resetTickers(OTHER_CURRENCY);
    const deep = await enrich(OTHER_CURRENCY);
    const ingest = await call("/historical/ingest", {
      at: AT,
      method: "POST",
      body: { tickers: [OTHER_CURRENCY], period: "1mo" },
    });
    expect(ingest.status).toBe(200);
    const res = await dcf(`/dcf/${OTHER_CURRENCY}`, { models: ["fcf", "eps"] });
    expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
    const r = res.body;
    const eod = await call<EodAnswer>(`/eod/${OTHER_CURRENCY}?fmt=json&period=1mo`, { at: AT });
    const last = eod.body.data.at(-1);
    expect([r.price_date, r.listing_currency, Number(r.listing_price)]).toEqual([last?.Date, "USD", last?.Close]);
    const fx = await call<FxSeriesBody>(`/fx/USD/EUR?from=${r.price_date}&to=${r.price_date}`, { at: AT });
    const rate = fx.body.data[0]?.rate ?? "";
    expect(r.price_conversion).toEqual({
      from: "USD",
      to: "EUR",
      rate,
      published: r.price_date,
      source: "ecb_reference_rates",
      carried_forward: false,
    });
    expect(r.currency).toBe("EUR");
    close(D(r.current_price), D(r.listing_price).times(rate), 0.0001, "price in euros");
    close(
      D(r.analyst_target),
      new Decimal(Number(deep.highlights?.target_price)).times(rate),
      0.0001,
      "target in euros",
    );
    // Both models valued (not refused for unlike units), the upside against the euro price.
    for (const m of ["fcf", "eps"] as const) {
      expect(r.models[m]?.intrinsic_value_per_share, `${m}: ${r.models[m]?.reason}`).not.toBeNull();
      close(
        D(r.models[m]?.upside_pct),
        D(r.models[m]?.intrinsic_value_per_share).div(D(r.current_price)).minus(1).times(100),
        0.01,
        `${m} upside`,
      );
    }
    expectReproducible(r, "fcf");
    expect(r.wacc.risk_free_rate_currency).toBe("EUR");
    expect(r.wacc.warnings).toEqual([]);
    expect(r.warnings).toContain(
      `the statements are in EUR and the listing trades in USD: valued in EUR, the price and the market figures converted at ${rate} (the ${r.price_date} publication)`,
    );
  });

  it("without a rate for the price's day (every rate provider failing), refuses the unlike units and keeps nothing", async () => {
    await resetFxRates();
    await fault(ecbSim, "EXR", "500", 20);
    await fault(fred, "DEXUSEU", "500", 20);
    await fault(delayedSim, "EURUSD=X", "500", 20);
    const waiting = await dcf(`/dcf/${OTHER_CURRENCY}`);
    expect(waiting.status, JSON.stringify(waiting.body).slice(0, 300)).toBe(200);
    expect(waiting.body.currency).toBe("USD");
    expect(waiting.body.price_conversion).toBeNull();
    expect(waiting.body.models.fcf?.intrinsic_value_per_share).toBeNull();
    expect(waiting.body.models.fcf?.reason).toContain("no per-share value without an exchange rate");
    expect(waiting.body.warnings.join(" ")).toContain("no USD/EUR rate for");
    await clearFault(ecbSim, "EXR");
    await clearFault(fred, "DEXUSEU");
    await clearFault(delayedSim, "EURUSD=X");
    await forgetCached("fx:*");
    // Not cached: the next request, the ECB back, values it in euros.
    const valued = await dcf(`/dcf/${OTHER_CURRENCY}`);
    expect(valued.body.cache_hit).toBe(false);
    expect(valued.body.currency).toBe("EUR");
    expect(valued.body.price_conversion?.source).toBe("ecb_reference_rates");
    expect(valued.body.models.fcf?.intrinsic_value_per_share).not.toBeNull();
  });

  it("compare: a non-payer's ddm at 0 with a warning, the consensus renormalised over fcf and eps (62.5 / 37.5)", async () => {
    const res = await dcf(`/dcf/${NON_PAYER}/compare`);
    expect(res.status).toBe(200);
    const r = res.body;
    expect(r.models.ddm?.intrinsic_value_per_share).toBe("0");
    expect(r.models.ddm?.warnings).toContain("the company pays no dividend: valued at 0 and left out of the consensus");
    expect(r.consensus_weights).toEqual({ fcf: "0.625", eps: "0.375" });
    const mean = D(r.models.fcf?.intrinsic_value_per_share)
      .times("0.625")
      .plus(D(r.models.eps?.intrinsic_value_per_share).times("0.375"));
    close(D(r.consensus_value), mean, 0.0001, "consensus");
    expect(D(r.models.eps?.inputs.payout_ratio).toNumber()).toBe(0);
    expectReproducible(r, "fcf");
    expectReproducible(r, "eps");
  });

  it("POST ddm for a company without a dividend answers 404", async () => {
    const res = await call<ErrorBody>(`/dcf/${NON_PAYER}`, { at: AT, method: "POST", body: { models: ["ddm"] } });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`${NON_PAYER} pays no dividend`);
  });

  it("a loss-maker: fcf and eps give no value but a reason, never a nonsense number", async () => {
    const r = (await dcf(`/dcf/${LOSS_MAKER}/compare`)).body;
    expect(r.models.fcf?.intrinsic_value_per_share).toBeNull();
    expect(r.models.fcf?.reason).toContain("average free cash flow of the last three fiscal years is not positive");
    expect(r.models.eps?.intrinsic_value_per_share).toBeNull();
    expect(r.models.eps?.reason).toBe("EPS is not positive: a P/E of losses means nothing");
    expect([r.consensus_value, r.consensus_upside_pct, r.consensus_weights]).toEqual([null, null, {}]);
    // No positive income before tax: the 25 % default, said.
    expect(r.wacc.tax_rate).toBe("0.25");
    expect(r.wacc.warnings).toContain("tax rate unknown (no positive income before tax): 25 % used");
  });

  it("negative book equity: no debt-to-equity ratio (with why), the market-value WACC and the fcf model still work", async () => {
    const r = (await dcf(`/dcf/${NEGATIVE_EQUITY}`, { models: ["fcf"] })).body;
    expect(D(r.solvency.book_equity).isNegative()).toBe(true);
    expect(r.solvency.debt_to_equity_ratio).toBeNull();
    expect(r.solvency.notes).toContain(
      "book equity is not positive (buybacks or losses): debt to equity is not meaningful",
    );
    expect(r.models.fcf?.intrinsic_value_per_share).not.toBeNull();
    expectReproducible(r, "fcf");
  });

  it("a missing beta: 1 used, with a warning", async () => {
    const r = (await dcf(`/dcf/${NO_BETA}`, { models: ["fcf"] })).body;
    expect(r.wacc.beta_used).toBe("1");
    expect(r.wacc.warnings).toContain("beta unknown: 1 used");
    expect(D(r.wacc.cost_of_equity).toFixed()).toBe(
      D(r.wacc.risk_free_rate).plus(D(r.wacc.equity_risk_premium)).toFixed(),
    );
  });

  it("the caller's assumptions: rates overridden (client_override), terminal growth capped near the rate, weights renormalised", async () => {
    const res = await dcf(
      `/dcf/${PAYER}`,
      {
        models: ["fcf", "ddm"],
        projection_years: 8,
        terminal_growth_rate: 0.068,
        wacc_params: { risk_free_rate: 0.03, equity_risk_premium: 0.05, beta_override: 0.8, tax_rate_override: 0.2 },
        fcf_growth_override: 0.04,
        model_weights: { fcf: 1, ddm: 3 },
      },
      READ_ONLY_KEY,
    );
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const r = res.body;
    expect(r.wacc).toMatchObject({
      risk_free_rate: "0.03",
      risk_free_rate_source: "client_override",
      beta_used: "0.8",
      cost_of_equity: "0.07",
      tax_rate: "0.2",
    });
    expect(r.models.fcf?.projected_values).toHaveLength(8);
    expect(r.models.fcf?.inputs.growth).toBe("0.04");
    expect(r.models.fcf?.growth_basis).toBe("client_override");
    // ddm discounts at 7 %: a 6.8 % terminal growth is within half a point, capped at 6.5 %.
    expect(r.models.ddm?.inputs.terminal_growth).toBe("0.065");
    expect(r.models.ddm?.warnings.some((x) => x.includes("capped at 6.5 %"))).toBe(true);
    expect(r.consensus_weights).toEqual({ fcf: "0.25", ddm: "0.75" });
    expectReproducible(r, "fcf");
    expectReproducible(r, "ddm");
  });

  it("bad assumptions answer 400 naming the field", async () => {
    for (const [body, field] of [
      [{ projection_years: 12 }, "projection_years"],
      [{ projection_years: 2 }, "projection_years"],
      [{ terminal_growth_rate: 2.5 }, "terminal_growth_rate"],
      [{ wacc_params: { risk_free_rate: 4.2 } }, "wacc_params.risk_free_rate"],
      [{ wacc_params: { beta: 1 } }, "wacc_params"],
      [{ model_weights: { fcf: -1 } }, "model_weights.fcf"],
      [{ models: ["dcf"] }, "models.0"],
      [{ models: ["fcf", "fcf"] }, "models"],
      [{ terminal_growth: 0.02 }, ""],
    ] as const) {
      const res = await call<ErrorBody>(`/dcf/${PAYER}`, { at: AT, method: "POST", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(
        res.body.details?.map((d) => d.path),
        JSON.stringify(res.body),
      ).toContain(field);
    }
  });

  it("sensitivity: a 6 x 5 grid by default, value falling as the WACC rises and rising with growth", async () => {
    const res = await call<SensitivityBody>(`/dcf/${PAYER}/sensitivity`, { at: AT });
    expect(res.status).toBe(200);
    const g = res.body;
    expect(g.wacc_range).toEqual(["0.06", "0.08", "0.1", "0.12", "0.14", "0.16"]);
    expect(g.growth_range).toEqual(["0.01", "0.02", "0.03", "0.04", "0.05"]);
    expect(g.matrix).toHaveLength(6);
    const values = g.matrix.map((row) => row.map((c) => D(c.intrinsic_value_per_share).toNumber()));
    for (const row of values) {
      expect(row).toHaveLength(5);
      for (let j = 1; j < row.length; j++) expect(row[j]).toBeGreaterThan(row[j - 1] as number);
    }
    for (let j = 0; j < 5; j++)
      for (let i = 1; i < 6; i++) expect(values[i]?.[j]).toBeLessThan(values[i - 1]?.[j] as number);
    const cell = g.matrix[1]?.[2];
    close(
      D(cell?.upside_pct),
      D(cell?.intrinsic_value_per_share).div(D(g.current_price)).minus(1).times(100),
      0.01,
      "cell upside",
    );
  });

  it("sensitivity: a cell whose growth reaches the rate is null; a bad grid answers 400 naming the parameter", async () => {
    const res = await call<SensitivityBody>(
      `/dcf/${PAYER}/sensitivity?wacc_min=0.03&wacc_max=0.05&wacc_step=0.01&growth_min=0.02&growth_max=0.04&growth_step=0.01`,
      { at: AT },
    );
    expect(res.status).toBe(200);
    expect(res.body.matrix.map((row) => row.map((c) => c.intrinsic_value_per_share === null))).toEqual([
      [false, true, true],
      [false, false, true],
      [false, false, false],
    ]);
    expect(res.body.matrix[0]?.[1]?.reason).toBe("growth at or above the discount rate");
    for (const [q, field] of [
      ["wacc_step=0", "wacc_step"],
      ["growth_min=0.05&growth_max=0.01", "growth_step"],
      ["wacc_min=0.01&wacc_max=0.9&wacc_step=0.001", "wacc_step"],
      ["model=eps", "model"],
      ["wacc_min=abc", "wacc_min"],
    ] as const) {
      const bad = await call<ErrorBody>(`/dcf/${PAYER}/sensitivity?${q}`, { at: AT });
      expect(bad.status, q).toBe(400);
      expect(
        bad.body.details?.map((d) => d.path),
        JSON.stringify(bad.body),
      ).toContain(field);
    }
  });

  it("with no macro-provider rate at all, the valuation says env_fallback and uses DCF_RISK_FREE_RATE", async () => {
    await resetMacroRates();
    await fault(fred, "*", "500", 1000);
    const r = (await dcf(`/dcf/${PAYER}`, { models: ["fcf"] })).body;
    expect(r.wacc.risk_free_rate_source).toBe("env_fallback");
    expect(r.wacc.risk_free_rate).toBe("0.042");
    expect(r.warnings).toContain("no macro-provider rate (macro_provider: HTTP 500): DCF_RISK_FREE_RATE used");
  });
});
