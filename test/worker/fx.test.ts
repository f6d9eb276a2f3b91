import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import Decimal from "decimal.js";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { euroRatesBetween } from "../../src/db/repositories/fx";
import { buildDeps } from "../../src/deps";
import { ECB_CURRENCIES } from "../../src/domain/fx/currencies";
import { readEurofxrefXml } from "../../src/domain/fx/ecb-wire";
import worker from "../../src/index";
import type { FxLatestSchema, FxSeriesBody } from "../../src/routes/fx/schema";
import type { ErrorBody } from "../../src/routes/openapi";
import { simulatedRate } from "../../tools/sandbox/ecb";
import { h10On } from "../../tools/sandbox/fred";
import { pairClose } from "../../tools/sandbox/yahoo-fx";
import easter from "../fixtures/recorded/ecb_reference_rates/hist-90d-2018-easter.json";
import mayDay from "../fixtures/recorded/ecb_reference_rates/hist-90d-2018-may-day.json";
import { clearFault, fault, forgetCached, resetFxRates, simRequests } from "../helpers/listings";
import { call } from "../helpers/worker-http";

type Latest = import("zod").infer<typeof FxLatestSchema>;

const replay = inject("replayUrl");
const ecbSim = inject("ecbSimUrl");
const fredSim = inject("fredSimUrl");
const delayedSim = inject("delayedSimUrl");
/** After the ECB's publication of Friday 27 November 2026 (the simulator's newest). */
const AT = "2026-11-27T17:00:00Z";
const ECB = "ecb_reference_rates";

/** The recorded rates of a currency, by day. */
function recorded(body: string, currency: string): Map<string, string> {
  const read = readEurofxrefXml(body);
  return new Map((read?.rates ?? []).filter((r) => r.currency === currency).map((r) => [r.day, r.rate]));
}

const replayed = (base: string) => ({ ECB_BASE_URL: base, ECB_DATA_API_BASE_URL: base });

beforeEach(resetFxRates);

describe("GET /fx/{base}/{quote} on the ECB's recorded answers", () => {
  it("answers EUR/USD around Easter 2018 as the ECB published it, carrying Thursday's rate over the four days without one", async () => {
    const usd = recorded(easter.response.body, "USD");
    const res = await call<FxSeriesBody>("/fx/EUR/USD?from=2018-03-26&to=2018-04-04", {
      at: "2018-04-05T12:00:00Z",
      env: replayed(`${replay}/${ECB}`),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.count).toBe(10);
    for (const day of ["2018-03-26", "2018-03-27", "2018-03-28", "2018-03-29", "2018-04-03", "2018-04-04"]) {
      const row = res.body.data.find((r) => r.date === day);
      expect(row, day).toEqual({ date: day, rate: usd.get(day), published: day, source: ECB, carried_forward: false });
    }
    const thursday = usd.get("2018-03-29");
    expect(res.body.data.filter((r) => r.carried_forward)).toEqual([
      {
        date: "2018-03-30",
        rate: thursday,
        published: "2018-03-29",
        source: ECB,
        carried_forward: true,
        note: "the 2018-03-29 publication; TARGET holiday: Good Friday",
      },
      {
        date: "2018-03-31",
        rate: thursday,
        published: "2018-03-29",
        source: ECB,
        carried_forward: true,
        note: "the 2018-03-29 publication; weekend",
      },
      {
        date: "2018-04-01",
        rate: thursday,
        published: "2018-03-29",
        source: ECB,
        carried_forward: true,
        note: "the 2018-03-29 publication; weekend",
      },
      {
        date: "2018-04-02",
        rate: thursday,
        published: "2018-03-29",
        source: ECB,
        carried_forward: true,
        note: "the 2018-03-29 publication; TARGET holiday: Easter Monday",
      },
    ]);
    expect(res.body.cross).toBeNull();
  });

  it("answers a weekend day with Friday's recorded rate and says so", async () => {
    // Both recordings answer the same address, and the replay serves the first (Easter's): a variant
    // serves the May recording there instead.
    const variant = await fetch(`${replay}/__replay/variants`, {
      method: "POST",
      body: JSON.stringify({ provider: ECB, file: "hist-90d-2018-easter.json", body: mayDay.response.body }),
    });
    const { id } = (await variant.json()) as { id: string };
    const friday = recorded(mayDay.response.body, "USD").get("2018-04-27");
    expect(friday).toBe("1.207");
    const res = await call<FxSeriesBody>("/fx/EUR/USD?from=2018-04-28&to=2018-04-28", {
      at: "2018-05-04T12:00:00Z",
      env: replayed(`${replay}/v/${id}/${ECB}`),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual([
      {
        date: "2018-04-28",
        rate: friday,
        published: "2018-04-27",
        source: ECB,
        carried_forward: true,
        note: "the 2018-04-27 publication; weekend",
      },
    ]);
  });
});

describe("GET /fx on the simulated ECB", () => {
  it("stores what it fetched: the same window again asks the ECB nothing", async () => {
    const before = await simRequests(ecbSim);
    const first = await call<FxSeriesBody>("/fx/EUR/GBP?from=2026-11-02&to=2026-11-27", { at: AT });
    expect(first.status).toBe(200);
    expect(first.body.data.find((r) => r.date === "2026-11-27")?.rate).toBe(simulatedRate("GBP", "2026-11-27"));
    const middle = await simRequests(ecbSim);
    const again = await call<FxSeriesBody>("/fx/EUR/GBP?from=2026-11-02&to=2026-11-27", { at: AT });
    expect(again.body.data).toEqual(first.body.data);
    const after = await simRequests(ecbSim);
    // One recent window, read from the 90-day file; nothing the second time.
    const asked = (k: string) => (middle[k] ?? 0) - (before[k] ?? 0);
    expect([asked("eurofxref-hist-90d"), asked("EXR")]).toEqual([1, 0]);
    expect(after).toEqual(middle);
  });

  it("crosses through the euro, says so, and rounds the cross to 10 significant digits", async () => {
    const res = await call<FxSeriesBody>("/fx/usd/gbp?from=2026-11-23&to=2026-11-27", { at: AT });
    expect(res.status).toBe(200);
    expect(res.body.cross).toBe("through the euro: EUR/GBP ÷ EUR/USD");
    for (const r of res.body.data) {
      const exact = Number(simulatedRate("GBP", r.date)) / Number(simulatedRate("USD", r.date));
      expect(Math.abs(Number(r.rate) - exact) / exact).toBeLessThan(1e-9);
      expect(r.rate.replace(/^0\.0*|\./g, "").length).toBeLessThanOrEqual(10);
    }
  });

  it("answers CSV, a currency into itself as 1, and today's day before 16:00 with yesterday's and why", async () => {
    const csv = await call<string>("/fx/EUR/JPY?from=2026-11-26&to=2026-11-27&fmt=csv", { at: AT });
    expect(csv.body).toBe(
      `date,rate,published,source,carried_forward\n2026-11-26,${simulatedRate("JPY", "2026-11-26")},2026-11-26,${ECB},false\n2026-11-27,${simulatedRate("JPY", "2026-11-27")},2026-11-27,${ECB},false\n`,
    );
    const same = await call<FxSeriesBody>("/fx/CHF/chf?from=2026-11-26&to=2026-11-27", { at: AT });
    expect(same.body.data.map((r) => [r.rate, r.source])).toEqual([
      ["1", "identity"],
      ["1", "identity"],
    ]);
    const morning = await call<FxSeriesBody>("/fx/EUR/USD?from=2026-11-26&to=2026-11-27", {
      at: "2026-11-27T10:00:00Z",
    });
    expect(morning.body.data.at(-1)).toEqual({
      date: "2026-11-27",
      rate: simulatedRate("USD", "2026-11-26"),
      published: "2026-11-26",
      source: ECB,
      carried_forward: true,
      note: "the 2026-11-26 publication; the day's rates are published at 16:00 Frankfurt time",
    });
  });

  it("refuses a currency without rates, a window in the future and one over 3,660 days", async () => {
    for (const [path, said] of [
      ["/fx/EUR/XYZ", 'quote "XYZ" has no rates'],
      ["/fx/RUB/EUR", 'base "RUB" has no rates'],
      ["/fx/EUR/US1", "three-letter"],
      ["/fx/EUR/USD?from=2026-12-01&to=2026-12-05", "starts after today"],
      ["/fx/EUR/USD?from=2000-01-01&to=2026-11-27", "at most 3660 days"],
      ["/fx/latest?base=ABC", 'base "ABC" has no rates'],
    ] as const) {
      const res = await call<ErrorBody>(path, { at: AT });
      expect(res.status, path).toBe(400);
      expect(res.body.message, path).toContain(said);
    }
  });

  it("answers a failing ECB with a 503 naming it when nothing is stored, and with what is stored when something is", async () => {
    // The macro and delayed providers failing too: no stand-in rates either.
    await fault(fredSim, "*", "500", 50);
    await fault(delayedSim, "EURUSD=X", "500", 50);
    await fault(ecbSim, "EXR", "500", 5);
    const failed = await call<ErrorBody>("/fx/EUR/USD?from=2026-11-23&to=2026-11-27", { at: AT });
    expect(failed.status).toBe(503);
    expect(failed.body.message).toContain(ECB);
    await clearFault(ecbSim, "EXR");
    expect((await call<FxSeriesBody>("/fx/EUR/USD?from=2026-11-23&to=2026-11-27", { at: AT })).status).toBe(200);
    // Days later, the ECB down: the stored days, the newer ones carried from the last stored, and why.
    await fault(ecbSim, "EXR", "500", 5);
    const later = await call<FxSeriesBody>("/fx/EUR/USD?from=2026-11-26&to=2026-12-01", { at: "2026-12-01T17:00:00Z" });
    expect(later.status).toBe(200);
    expect(later.body.data.map((r) => [r.date, r.published])).toEqual([
      ["2026-11-26", "2026-11-26"],
      ["2026-11-27", "2026-11-27"],
      ["2026-11-28", "2026-11-27"],
      ["2026-11-29", "2026-11-27"],
      ["2026-11-30", "2026-11-27"],
      ["2026-12-01", "2026-11-27"],
    ]);
    expect(later.body.data.at(-1)?.note).toBe("the 2026-11-27 publication; no publication stored for 2026-12-01");
    expect(later.body.notes.join(" ")).toContain(`the newest rates could not be fetched: ${ECB}`);
    await clearFault(delayedSim, "EURUSD=X");
  });

  it("backfills older years through the queue: 202 with the windows, then the rates", async () => {
    const res = await call<{ status: string; windows: { year: number }[] }>(
      "/fx/EUR/SEK?from=2023-12-20&to=2025-01-10",
      { at: AT },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.windows.map((w) => w.year)).toEqual([2023, 2024]);
    let done: Awaited<ReturnType<typeof call<FxSeriesBody>>> | undefined;
    for (let i = 0; i < 60; i++) {
      done = await call<FxSeriesBody>("/fx/EUR/SEK?from=2023-12-20&to=2025-01-10", { at: AT });
      if (done.status === 200) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(done?.status).toBe(200);
    expect(done?.body.data.find((r) => r.date === "2024-06-14")?.rate).toBe(simulatedRate("SEK", "2024-06-14"));
    expect(done?.body.data.find((r) => r.date === "2023-12-25")).toMatchObject({
      published: "2023-12-22",
      note: "the 2023-12-22 publication; TARGET holiday: Christmas Day",
    });
  });
});

describe("the macro provider's rates when the ECB fails", () => {
  it("stand in for recent days, say whose they are, and give way to the ECB's once it answers", async () => {
    await fault(ecbSim, "EXR", "500", 10);
    const res = await call<FxSeriesBody>("/fx/EUR/JPY?from=2026-11-23&to=2026-11-25", { at: AT });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const r of res.body.data) {
      // Yen per dollar times dollars per euro, of the same day, to 10 significant digits.
      const expected = new Decimal(h10On("DEXJPUS", r.date))
        .times(h10On("DEXUSEU", r.date))
        .toSignificantDigits(10)
        .toFixed();
      expect(r, r.date).toEqual({
        date: r.date,
        rate: expected,
        published: r.date,
        source: "macro_provider",
        carried_forward: false,
      });
    }
    // The days H.10 lacks in the window (Thanksgiving, 26 November) the delayed provider's pair fills.
    expect(res.body.notes.join(" ")).toContain(
      "the macro provider's rates of JPY and the delayed provider's rates of JPY stand in",
    );
    const thanksgiving = await call<FxSeriesBody>("/fx/EUR/JPY?from=2026-11-26&to=2026-11-26", { at: AT });
    expect(thanksgiving.body.data[0]).toMatchObject({
      rate: String(pairClose("JPY", "2026-11-26")),
      source: "delayed_provider",
      carried_forward: false,
    });
    // The ECB back (and its five minutes' rest over): its rates replace the stand-ins.
    await clearFault(ecbSim, "EXR");
    await forgetCached("fx:asked:*");
    const later = await call<FxSeriesBody>("/fx/EUR/JPY?from=2026-11-23&to=2026-11-25", { at: AT });
    expect(later.body.data.map((r) => [r.rate, r.source])).toEqual(
      ["2026-11-23", "2026-11-24", "2026-11-25"].map((d) => [simulatedRate("JPY", d), ECB]),
    );
  });
});

describe("the delayed provider's pairs when the ECB fails", () => {
  it("stand in for a currency the macro provider has no series of, at the pair's close, on publication days only", async () => {
    await fault(ecbSim, "EXR", "500", 10);
    // Monday 23 to Wednesday 25 November 2026, and the weekend before (no publication: carried).
    const res = await call<FxSeriesBody>("/fx/EUR/PLN?from=2026-11-20&to=2026-11-25", { at: AT });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const own = res.body.data.filter((r) => !r.carried_forward);
    expect(own.map((r) => r.date)).toEqual(["2026-11-20", "2026-11-23", "2026-11-24", "2026-11-25"]);
    for (const r of own)
      expect(r, r.date).toEqual({
        date: r.date,
        rate: String(pairClose("PLN", r.date)),
        published: r.date,
        source: "delayed_provider",
        carried_forward: false,
      });
    expect(res.body.data.find((r) => r.date === "2026-11-22")).toMatchObject({
      rate: String(pairClose("PLN", "2026-11-20")),
      published: "2026-11-20",
      carried_forward: true,
    });
    expect(res.body.notes.join(" ")).toContain("the delayed provider's rates of PLN stand in");
    expect((await simRequests(delayedSim))["chart EURPLN=X"]).toBeGreaterThan(0);
    // The ECB back: its rates replace the stand-ins.
    await clearFault(ecbSim, "EXR");
    await forgetCached("fx:asked:*");
    const later = await call<FxSeriesBody>("/fx/EUR/PLN?from=2026-11-23&to=2026-11-25", { at: AT });
    expect(later.body.data.map((r) => [r.rate, r.source])).toEqual(
      ["2026-11-23", "2026-11-24", "2026-11-25"].map((d) => [simulatedRate("PLN", d), ECB]),
    );
  });
});

describe("a currency the ECB stopped publishing", () => {
  it("the lev after 2025: a 404 once, its year marked stored, never asked again", async () => {
    const at = "2027-06-01T17:00:00Z";
    const first = await call<ErrorBody>("/fx/EUR/BGN?from=2026-03-02&to=2026-03-06", { at });
    expect(first.status).toBe(404);
    expect(first.body.message).toBe("No EUR/BGN rate found");
    const before = await simRequests(ecbSim);
    expect((await call<ErrorBody>("/fx/EUR/BGN?from=2026-03-02&to=2026-03-06", { at })).status).toBe(404);
    expect(await simRequests(ecbSim)).toEqual(before);
    // Its history stays: the last publication, 31 December 2025, carried over New Year's Day.
    const end = await call<FxSeriesBody>("/fx/EUR/BGN?from=2025-12-31&to=2026-01-01", { at });
    expect(end.status, JSON.stringify(end.body)).toBe(200);
    expect(end.body.data.map((r) => [r.date, r.rate, r.published])).toEqual([
      ["2025-12-31", "1.9558", "2025-12-31"],
      ["2026-01-01", "1.9558", "2025-12-31"],
    ]);
  });
});

describe("GET /fx/latest", () => {
  it("answers every currency against the euro, or against another base through it", async () => {
    const eur = await call<Latest>("/fx/latest", { at: AT });
    expect(eur.status).toBe(200);
    expect(eur.body.date).toBe("2026-11-27");
    // The 29 currencies published now (the lev's ended with 2025).
    expect(Object.keys(eur.body.rates)).toHaveLength(29);
    expect(eur.body.rates.USD).toBe(simulatedRate("USD", "2026-11-27"));
    const usd = await call<Latest>("/fx/latest?base=usd", { at: AT });
    expect(usd.body.rates.EUR).toBe(String(Number((1 / Number(simulatedRate("USD", "2026-11-27"))).toPrecision(10))));
    expect(usd.body.cross).toContain("through the euro");
  });
});

describe("the daily refresh (Cron Trigger 20 15 * * *)", () => {
  it("stores every currency's publication of the day", async () => {
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "20 15 * * *" }), { ...env, CLOCK_PINNED_AT: AT }, ctx);
    await waitOnExecutionContext(ctx);
    const deps = buildDeps(env);
    try {
      const rows = await euroRatesBetween(deps.db, ECB_CURRENCIES, "2026-11-27", "2026-11-27");
      // The 29 currencies of a publication since the lev joined the euro.
      expect(rows).toHaveLength(29);
      expect(rows.find((r) => r.currency === "USD")).toEqual({
        day: "2026-11-27",
        currency: "USD",
        rate: simulatedRate("USD", "2026-11-27"),
        source: ECB,
      });
    } finally {
      await deps.close();
    }
  });
});
