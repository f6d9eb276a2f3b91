import { afterAll, describe, expect, inject, it } from "vitest";
import type { IngestAnswer } from "../../src/routes/eod/schema";
import type { Health } from "../../src/routes/health/schema";
import { FAULT_CLASSES, type SimulatedProvider } from "../../tools/sandbox/registry";
import { clearFault, fault, storedBars } from "../helpers/listings";
import { call } from "../helpers/worker-http";
import { resetState } from "./state";

const providers = inject("simulatedProviders");
const simulators: Record<SimulatedProvider["simulator"], string> = {
  delayedSimUrl: inject("delayedSimUrl"),
  streamSimUrl: inject("streamSimUrl"),
};
/** Enough for any probe: a fault stays until its case clears it. */
const ALWAYS = 1000;
const table: string[][] = [];

async function probe(p: SimulatedProvider) {
  return call<IngestAnswer>(p.probe.path, { method: p.probe.method, body: p.probe.body });
}

/** The database holds exactly what the answer says was written: no half of a failed write, nothing unreported. */
async function expectWhatWasReported(p: SimulatedProvider, answer: Pick<IngestAnswer, "results">): Promise<void> {
  const written = answer.results.reduce((n, r) => n + r.rows_written, 0);
  expect(await storedBars(p.probe.ticker)).toEqual({ rows: written, dates: written });
}

async function callsOf(provider: string) {
  const health = await call<Health>("/health", { key: null });
  return { status: health.body.status, calls: health.body.providers.calls[provider] };
}

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

describe.each(providers)("the fault matrix: $provider", (p) => {
  it.each(FAULT_CLASSES)("%s", async (cls) => {
    const { mode, scope } = p.faults[cls];
    const symbol = scope === "all" ? "*" : p.symbol;
    await resetState([p.probe.ticker]);
    for (const f of p.probe.alsoFault ?? []) await fault(simulators[f.simulator], f.symbol, f.mode, ALWAYS);
    await fault(simulators[p.simulator], symbol, mode, ALWAYS);

    const res = await probe(p);
    const shown = JSON.stringify(res.body).slice(0, 600);
    // Never a 5xx but the documented 503 of an unavailable upstream, and the answer names the provider.
    expect(res.status === 200 || res.status === 503, shown).toBe(true);
    expect(shown).toContain(p.provider);
    // A 503 reports nothing written: then nothing is stored.
    await expectWhatWasReported(p, res.status === 200 ? res.body : { results: [] });
    const failed = res.body.results?.[0]?.errors.find((e) => e.provider === p.provider);
    // /health tells the provider failed, unless it answered that it has no such symbol (an answer, not a failure).
    const during = await callsOf(p.provider);
    expect(during.calls?.failing, JSON.stringify(during)).toBe(cls !== "unknown_symbol");
    if (cls !== "unknown_symbol")
      expect(during.calls?.last_failure).toMatch(/^(timeout|unavailable|rate_limited|bad_response)$/);
    if (cls !== "unknown_symbol") expect(during.status).toBe("degraded");

    // Recovery: this provider's fault cleared (the faults that route requests to it stay), the probe succeeds from it.
    await clearFault(simulators[p.simulator], symbol);
    await resetState([p.probe.ticker]);
    const again = await probe(p);
    expect(again.status, JSON.stringify(again.body).slice(0, 600)).toBe(200);
    expect(again.body.results[0]).toMatchObject({ status: "ingested", source: p.provider });
    await expectWhatWasReported(p, again.body);
    const after = await callsOf(p.provider);
    expect(after.calls?.failing).toBe(false);
    for (const f of p.probe.alsoFault ?? []) await clearFault(simulators[f.simulator], f.symbol);
    // Every fault gone: one more probe, and the service is healthy again.
    await resetState([p.probe.ticker]);
    expect((await probe(p)).status).toBe(200);
    expect((await callsOf(p.provider)).status).toBe("ok");

    table.push([p.provider, cls, String(res.status), (failed?.message ?? shown).slice(0, 70), "yes"]);
  });
});
