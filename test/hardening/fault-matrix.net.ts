import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { IngestAnswer } from "../../src/routes/eod/schema";
import type { DeepFundamentalsAnswer, RenderedFundamentalsAnswer } from "../../src/routes/fundamentals/schema";
import type { FxSeriesBody } from "../../src/routes/fx/schema";
import type { Health } from "../../src/routes/health/schema";
import type { InsiderTransactionsAnswer } from "../../src/routes/insider/schema";
import type { MacroRatesBody } from "../../src/routes/macro/schema";
import type { NewsBody } from "../../src/routes/news/schema";
import {
  FAULT_CLASSES,
  type FaultClass,
  type SimulatedProvider,
  TRANSPORT_FAULT_CLASSES,
} from "../../tools/sandbox/registry";
import { clearFault, fault, storedBars } from "../helpers/listings";
import { type Answer, call } from "../helpers/worker-http";
import { resetState } from "./state";

const providers = inject("simulatedProviders");
/** The nets' own simulators (test/helpers/global-setup.ts), which their bindings point at. */
const simulators = inject("hardeningSims");
/** Enough for any probe: a fault stays until its case clears it. */
const ALWAYS = 1000;
const table: string[][] = [];

type ProbeAnswer = Answer<
  IngestAnswer &
    RenderedFundamentalsAnswer &
    DeepFundamentalsAnswer &
    InsiderTransactionsAnswer &
    MacroRatesBody &
    FxSeriesBody &
    Omit<NewsBody, "source">
>;

/**
 * The provider's calls may take PROVIDER_TIMEOUT_MS (1.5 s in the tests); while a timeout fault
 * holds every answer back, a shorter limit tells the same failure sooner.
 */
const TIMEOUT_FAULT_MS = "600";

/** A fault class of the matrix: the providers' own, or a transport fault. */
type CaseClass = FaultClass | keyof typeof TRANSPORT_FAULT_CLASSES;

async function probe(p: SimulatedProvider, cls?: CaseClass): Promise<ProbeAnswer> {
  const env = cls === "timeout" ? { PROVIDER_TIMEOUT_MS: TIMEOUT_FAULT_MS } : undefined;
  return call(p.probe.path, { method: p.probe.method, body: p.probe.body, env });
}

/**
 * The probe's answer while the provider fails: never a 5xx but the documented 503 of an unavailable
 * upstream, nothing half-written, and the answer says which provider failed. Returns what it says.
 */
async function expectFailureReported(p: SimulatedProvider, cls: CaseClass, res: ProbeAnswer): Promise<string> {
  const shown = JSON.stringify(res.body).slice(0, 600);
  switch (p.probe.answer) {
    case "ingest": {
      expect(res.status === 200 || res.status === 503, shown).toBe(true);
      expect(shown).toContain(p.provider);
      // A 503 reports nothing written: then nothing is stored.
      await expectWhatWasReported(p, res.status === 200 ? res.body : { results: [] });
      return res.body.results?.[0]?.errors.find((e) => e.provider === p.provider)?.message ?? shown;
    }
    case "document": {
      // A failing page never fails the document: its entry says so, and none of its figures is used.
      expect(res.status, shown).toBe(200);
      const entry = res.body.Providers[p.provider] as { status: string; error: string };
      expect(entry.status, shown).toBe("error");
      expect(entry.error).toContain(p.provider);
      expect(JSON.stringify(res.body.Sources)).not.toContain(p.provider);
      return entry.error;
    }
    case "deep": {
      // The stored figures (none, after the reset), and a note saying why nothing was fetched.
      expect(res.status, shown).toBe(200);
      expect(res.body.meta.source, shown).toBe("database");
      expect(res.body.meta.note, shown).toMatch(/^nothing fetched: /);
      expect(res.body.highlights, cls).toEqual({});
      return res.body.meta.note ?? shown;
    }
    case "insider": {
      // The registrant is known (EDGAR's ticker list answered before the fault): the stored
      // transactions (none, after the reset), and a note naming the provider's failure.
      expect(res.status, shown).toBe(200);
      expect(res.body.meta.note, shown).toContain(p.provider);
      expect(res.body.transactions).toEqual([]);
      return res.body.meta.note ?? shown;
    }
    case "news": {
      // The other providers' articles; the failing one contributes nothing and is named with why
      // (one that had nothing for the ticker answered: it is no failure).
      expect(res.status, shown).toBe(200);
      expect(res.body.count, shown).toBeGreaterThan(0);
      expect(res.body.articles.map((a) => a.provider)).not.toContain(p.provider);
      const failure = res.body.errors.find((e) => e.provider === p.provider);
      if (cls === "unknown_symbol") expect(failure, shown).toBeUndefined();
      else expect(failure?.reason, shown).toContain(p.provider);
      return failure?.reason ?? "nothing for the ticker (an answer)";
    }
    case "fx": {
      // Nothing stored (after the reset) and nothing fetched: a 503 naming the provider's failure;
      // a window the provider published nothing of is an answer: a 404 saying so.
      expect(res.status, shown).toBe(cls === "unknown_symbol" ? 404 : 503);
      const message = (res.body as unknown as { message: string }).message;
      expect(message, shown).toContain(cls === "unknown_symbol" ? "EUR/USD" : p.provider);
      return message;
    }
    case "macro": {
      // Nothing stored (after the reset): no value, and a note naming the provider's failure.
      expect(res.status, shown).toBe(200);
      expect(res.body.risk_free_rate, shown).toBeNull();
      expect(res.body.meta.note, shown).toContain(p.provider);
      return res.body.meta.note ?? shown;
    }
  }
}

/** The probe's answer once the provider answers again: served from it, and stored where it is stored. */
async function expectServedBy(p: SimulatedProvider, res: ProbeAnswer): Promise<void> {
  const shown = JSON.stringify(res.body).slice(0, 600);
  expect(res.status, shown).toBe(200);
  switch (p.probe.answer) {
    case "ingest":
      expect(res.body.results[0]).toMatchObject({ status: "ingested", source: p.provider });
      await expectWhatWasReported(p, res.body);
      return;
    case "document":
      expect((res.body.Providers[p.provider] as { status: string }).status, shown).toBe("ok");
      expect(JSON.stringify(res.body.Sources.Highlights)).toContain(p.provider);
      return;
    case "deep":
      expect(res.body.meta.source, shown).toBe(p.provider);
      expect(Object.keys(res.body.highlights ?? {}).length).toBeGreaterThan(20);
      return;
    case "insider":
      expect(res.body.meta.source, shown).toBe(p.provider);
      expect(res.body.transactions.length).toBe(5);
      return;
    case "news":
      expect(res.body.providers, shown).toContain(p.provider);
      expect(res.body.errors).toEqual([]);
      return;
    case "fx":
      expect(res.body.data.length, shown).toBe(30);
      expect(res.body.data.every((r) => r.source === p.provider)).toBe(true);
      return;
    case "macro":
      expect(res.body.risk_free_rate?.series_id, shown).toBe("DGS10");
      expect(res.body.meta).toMatchObject({ cache_hit: false, stale: false });
      return;
  }
}

/** The database holds exactly what the answer says was written: no half of a failed write, nothing unreported. */
async function expectWhatWasReported(p: SimulatedProvider, answer: Pick<IngestAnswer, "results">): Promise<void> {
  const written = answer.results.reduce((n, r) => n + r.rows_written, 0);
  expect(await storedBars(p.probe.ticker ?? "")).toEqual({ rows: written, dates: written });
}

async function callsOf(provider: string) {
  const health = await call<Health>("/health", { key: null });
  return {
    status: health.body.status,
    calls: health.body.providers.calls[provider],
    delayedAvailable: health.body.delayed_provider_available,
  };
}

describe("the fault matrix", () => {
  // The nets share one isolate: a provider an earlier net left failing is brought back first, so
  // the matrix starts from a healthy service whatever ran before it.
  beforeAll(async () => {
    for (const p of providers) {
      if (!(await callsOf(p.provider)).calls?.failing) continue;
      await resetState(p.probe.ticker ? [p.probe.ticker] : []);
      expect((await probe(p)).status, `${p.provider} answers again`).toBe(200);
    }
  });

  afterAll(() => {
    const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...table.map((r) => (r[i] ?? "").length), 8));
    const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i] ?? 8)).join(" | ");
    console.log(
      [
        "fault matrix",
        line(["provider", "fault", "status", "what the answer says", "recovered"]),
        ...table.map(line),
      ].join("\n"),
    );
  });

  describe.each(providers)("the fault matrix: $provider through $probe.path", (p) => {
    it.each(FAULT_CLASSES)("%s", (cls) => faultCase(p, cls, p.faults[cls]));
  });

  // The transport's faults, where the provider is reached over HTTP (the stream provider is a WebSocket).
  describe.each(providers.filter((p) => p.simulator !== "streamSimUrl"))(
    "the transport faults: $provider through $probe.path",
    (p) => {
      it.each(Object.keys(TRANSPORT_FAULT_CLASSES) as (keyof typeof TRANSPORT_FAULT_CLASSES)[])("%s", (cls) =>
        faultCase(p, cls, { mode: TRANSPORT_FAULT_CLASSES[cls], scope: "symbol" }),
      );
    },
  );
});

/**
 * One case of the matrix: the provider fails with `cls` (its simulator's `mode`), the probe's answer
 * says so without a 5xx nor a half-write, /health tells it, and the service recovers once the
 * fault is cleared.
 */
async function faultCase(p: SimulatedProvider, cls: CaseClass, { mode, scope }: { mode: string; scope: string }) {
  const symbol = scope === "all" ? "*" : p.symbol;
  await resetState(p.probe.ticker ? [p.probe.ticker] : []);
  const warmUp = p.probe.warmUp;
  if (warmUp) expect((await call(warmUp.path, { method: warmUp.method, body: warmUp.body })).status).toBe(200);
  for (const f of p.probe.alsoFault ?? []) await fault(simulators[f.simulator], f.symbol, f.mode, ALWAYS);
  await fault(simulators[p.simulator], symbol, mode, ALWAYS);

  const res = await probe(p, cls);
  const said = await expectFailureReported(p, cls, res);
  // /health tells the provider failed, unless it answered that it has no such symbol (an answer, not a failure).
  const during = await callsOf(p.provider);
  expect(during.calls?.failing, JSON.stringify(during)).toBe(cls !== "unknown_symbol");
  if (cls !== "unknown_symbol")
    expect(during.calls?.last_failure).toMatch(/^(timeout|unavailable|rate_limited|bad_response)$/);
  if (cls !== "unknown_symbol") expect(during.status).toBe("degraded");
  // An answer over the cap and a redirect elsewhere are the provider's bad answers, never followed nor read whole.
  if (cls in TRANSPORT_FAULT_CLASSES) expect(during.calls?.last_failure).toBe("bad_response");
  // /health's delayed_provider_available follows the delayed provider's latest call.
  if (p.provider === "delayed_provider") expect(during.delayedAvailable).toBe(cls === "unknown_symbol");

  // Recovery: this provider's fault cleared (the faults that route requests to it stay), the probe succeeds from it.
  await clearFault(simulators[p.simulator], symbol);
  await resetState(p.probe.ticker ? [p.probe.ticker] : []);
  await expectServedBy(p, await probe(p));
  const after = await callsOf(p.provider);
  expect(after.calls?.failing).toBe(false);
  if (p.provider === "delayed_provider") expect(after.delayedAvailable).toBe(true);
  for (const f of p.probe.alsoFault ?? []) await clearFault(simulators[f.simulator], f.symbol);
  // Every fault gone: one more probe, and the service is healthy again.
  await resetState(p.probe.ticker ? [p.probe.ticker] : []);
  expect((await probe(p)).status).toBe(200);
  expect((await callsOf(p.provider)).status).toBe("ok");

  table.push([`${p.provider} (${p.probe.answer})`, cls, String(res.status), said.slice(0, 70), "yes"]);
}
