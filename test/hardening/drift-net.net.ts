import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  assets,
  earningsHistory,
  earningsTrends,
  financialStatements,
  fundamentalSnapshots,
  listings,
  validationResults,
} from "../../src/db/schema";
import {
  analystFigures,
  currenciesOf,
  earningsRows,
  estimateFigures,
  highlightFigures,
  highlightTexts,
  profileOf,
  type Summary,
  trendRows,
} from "../../src/domain/fundamentals/delayed-figures";
import { type StatementKind, type StatementPeriod, statementRows } from "../../src/domain/fundamentals/statements";
import { readSummary, SUMMARY_SCHEMA } from "../../src/domain/fundamentals/summary-schema";
import { readTimeseries } from "../../src/domain/fundamentals/timeseries";
import { leafPaths, requiredPaths } from "../../src/domain/wire-schema";
import type { DeepFundamentalsAnswer } from "../../src/routes/fundamentals/schema";
import balanceAnnual from "../fixtures/recorded/delayed_provider/fundamentalsTimeSeries-AAPL-balance-sheet-annual.json";
import balanceQuarterly from "../fixtures/recorded/delayed_provider/fundamentalsTimeSeries-AAPL-balance-sheet-quarterly.json";
import cashAnnual from "../fixtures/recorded/delayed_provider/fundamentalsTimeSeries-AAPL-cash-flow-annual.json";
import cashQuarterly from "../fixtures/recorded/delayed_provider/fundamentalsTimeSeries-AAPL-cash-flow-quarterly.json";
import incomeAnnual from "../fixtures/recorded/delayed_provider/fundamentalsTimeSeries-AAPL-financials-annual.json";
import incomeQuarterly from "../fixtures/recorded/delayed_provider/fundamentalsTimeSeries-AAPL-financials-quarterly.json";
import aaplSummary from "../fixtures/recorded/delayed_provider/quoteSummary-AAPL-all.json";
import { withDb } from "../helpers/db";
import { resetTickers } from "../helpers/listings";
import { MUTATION_KINDS, type MutationKind, mutated } from "../helpers/mutations";
import { call } from "../helpers/worker-http";

/**
 * The drift net: for every recording the fundamentals chain reads and every field its client
 * reads, the recording is replayed with that field removed, given another type and renamed (a
 * variant of the replay server, tools/sandbox/replay.ts), through GET /fundamental/deep (fetch,
 * validation, storage, the document read back). Each run must answer (no 5xx, the provider's
 * figures still shown), every figure that does not come from the mutated field must equal the
 * unmutated run's (which figures come from it is computed from the recording by the pure domain
 * mapping, not from the service's answers), and the drift must be reported: a schema_drift verdict,
 * or a null verdict for a validated figure it carried, or nothing lost (another source of the same
 * figure). Fields the service neither validates nor needs to name a row (a company's address, an
 * earnings row's estimate) cannot tell a removal from a provider that has no value: counted apart.
 */

const replay = inject("replayUrl");
/**
 * The full net (HARDENING=full, CI) applies every mutation kind to every field; the sample of
 * `npm test` applies one kind per field, the kinds taking turns down the list of fields.
 */
const FULL = inject("hardeningFull");
const kindsFor = (index: number): readonly MutationKind[] =>
  FULL ? MUTATION_KINDS : [MUTATION_KINDS[index % MUTATION_KINDS.length] as MutationKind];
const AT = "2026-02-20T15:00:00Z";
const TICKER = "AAPL";

type Json = Record<string, unknown>;
type Doc = DeepFundamentalsAnswer;

interface Recording {
  file: string;
  body: unknown;
}
const summaryRecording: Recording = { file: "quoteSummary-AAPL-all.json", body: aaplSummary.response.body };
const TIMESERIES: (Recording & { statement: StatementKind; period: StatementPeriod })[] = [
  {
    file: "fundamentalsTimeSeries-AAPL-financials-annual.json",
    body: incomeAnnual.response.body,
    statement: "income",
    period: "annual",
  },
  {
    file: "fundamentalsTimeSeries-AAPL-financials-quarterly.json",
    body: incomeQuarterly.response.body,
    statement: "income",
    period: "quarterly",
  },
  {
    file: "fundamentalsTimeSeries-AAPL-balance-sheet-annual.json",
    body: balanceAnnual.response.body,
    statement: "balance",
    period: "annual",
  },
  {
    file: "fundamentalsTimeSeries-AAPL-balance-sheet-quarterly.json",
    body: balanceQuarterly.response.body,
    statement: "balance",
    period: "quarterly",
  },
  {
    file: "fundamentalsTimeSeries-AAPL-cash-flow-annual.json",
    body: cashAnnual.response.body,
    statement: "cashflow",
    period: "annual",
  },
  {
    file: "fundamentalsTimeSeries-AAPL-cash-flow-quarterly.json",
    body: cashQuarterly.response.body,
    statement: "cashflow",
    period: "quarterly",
  },
];
/** What the timeseries reader reads of each series. */
const TIMESERIES_FIELDS = [
  "result[].{series}[].reportedValue.raw",
  "result[].{series}[].asOfDate",
  "result[].meta.type",
];

const summaryRoot = (body: unknown) => ((body as Json).quoteSummary as { result: unknown[] }).result[0];
const timeseriesRoot = (body: unknown) => (body as Json).timeseries;

/** The deep document as comparable keys: each figure, each statement item, each earnings section whole. */
function flat(doc: Doc): Map<string, string> {
  const out = new Map<string, string>();
  const put = (k: string, v: unknown) => out.set(k, JSON.stringify(v));
  for (const [k, v] of Object.entries(doc.highlights ?? {})) put(`highlights.${k}`, v);
  for (const [k, v] of Object.entries(doc.analyst_ratings ?? {})) put(`analyst_ratings.${k}`, v);
  put("earnings_history", doc.earnings_history);
  put("earnings_trend", doc.earnings_trend);
  for (const [statement, periods] of Object.entries(doc.statements ?? {}))
    for (const [period, rows] of Object.entries(periods as Record<string, Json[]>))
      for (const row of rows)
        for (const [item, v] of Object.entries(row)) {
          // Every row is in the reporting currency: one figure, from the quoteSummary's financialData.
          if (item === "currency") put("statements.currency", v);
          else if (item !== "period_end") put(`statements.${statement}.${period}.${row.period_end}.${item}`, v);
        }
  put("meta.source", doc.meta.source);
  return out;
}

/** What the domain mapping makes of a quoteSummary answer, under the deep document's keys; `validated`: the figures' keys. */
function fromSummary(summary: Summary): { values: Map<string, string>; validated: Set<string> } {
  const values = new Map<string, string>();
  const validated = new Set<string>();
  const put = (k: string, v: unknown) => values.set(k, JSON.stringify(v));
  const analyst = analystFigures(summary);
  for (const [prefix, figures] of [
    ["highlights", [...highlightFigures(summary), ...estimateFigures(summary)]],
    ["analyst_ratings", analyst.figures],
  ] as const)
    for (const f of figures) {
      put(`${prefix}.${f.field}`, f.value);
      validated.add(`${prefix}.${f.field}`);
    }
  for (const [k, v] of Object.entries(highlightTexts(summary))) put(`highlights.${k}`, v);
  for (const [k, v] of Object.entries(analyst.texts)) put(`analyst_ratings.${k}`, v);
  put("earnings_history", earningsRows(summary));
  put("earnings_trend", trendRows(summary));
  put("statements.currency", currenciesOf(summary).financial);
  // Stored but not in the deep document (GET /fundamental's General section shows them).
  put("quote_currency", currenciesOf(summary).quote);
  for (const [k, v] of Object.entries(profileOf(summary))) put(`profile.${k}`, v);
  return { values, validated };
}

/** What the domain mapping makes of a timeseries answer, under the deep document's keys. */
function fromTimeseries(r: (typeof TIMESERIES)[number], body: unknown): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of statementRows(readTimeseries("replay", body).rows))
    for (const [item, v] of Object.entries(row.items))
      out.set(`statements.${r.statement}.${r.period}.${row.periodEnd}.${item}`, JSON.stringify(v));
  return out;
}

/** The keys whose values differ between two readings (present in one only counts). */
function changed(a: Map<string, string>, b: Map<string, string>): Set<string> {
  const keys = new Set([...a.keys(), ...b.keys()]);
  return new Set([...keys].filter((k) => a.get(k) !== b.get(k)));
}

/** AAPL's stored fundamentals and verdicts gone, its symbol verified (the replay has no ISIN search). */
async function forgetStored(): Promise<void> {
  await withDb(async (db) => {
    const [row] = await db
      .select({ assetId: listings.assetId })
      .from(listings)
      .innerJoin(assets, eq(assets.id, listings.assetId))
      .where(eq(listings.ticker, TICKER));
    const assetId = row?.assetId ?? -1;
    for (const table of [fundamentalSnapshots, financialStatements, earningsHistory, earningsTrends])
      await db.delete(table).where(eq(table.assetId, assetId));
    await db.delete(validationResults).where(eq(validationResults.ticker, TICKER));
  });
}

async function variant(file: string, body: unknown): Promise<string> {
  const res = await fetch(`${replay}/__replay/variants`, {
    method: "POST",
    body: JSON.stringify({ provider: "delayed_provider", file, body }),
  });
  return ((await res.json()) as { id: string }).id;
}

/** One enrichment from the replay (or a variant of it), and the verdicts it stored. */
async function run(base: string): Promise<{ status: number; doc: Doc; verdicts: { field: string; status: string }[] }> {
  await forgetStored();
  const res = await call<Doc>(
    `/fundamental/deep?ticker=${TICKER}&refresh=true&sections=highlights,statements,earnings,ratings`,
    {
      at: AT,
      env: { DELAYED_PROVIDER_BASE_URL: base },
    },
  );
  const verdicts = await withDb((db) =>
    db
      .select({ field: validationResults.field, status: validationResults.status })
      .from(validationResults)
      .where(and(eq(validationResults.ticker, TICKER), inArray(validationResults.providerName, ["delayed_provider"]))),
  );
  return { status: res.status, doc: res.body, verdicts };
}

interface Tally {
  mutations: number;
  s5xx: number;
  byDrift: number;
  byNull: number;
  nothingLost: number;
  silent: number;
  fields: Set<string>;
}

describe("the drift net: every field the fundamentals chain reads, removed, retyped and renamed", () => {
  let baseline: Map<string, string>;
  const tally: Tally = { mutations: 0, s5xx: 0, byDrift: 0, byNull: 0, nothingLost: 0, silent: 0, fields: new Set() };
  const required = new Set(requiredPaths(SUMMARY_SCHEMA));

  beforeAll(async () => {
    await resetTickers(TICKER);
    await withDb((db) =>
      db
        .update(listings)
        .set({ delayedSymbol: TICKER, delayedSymbolCheckedAt: new Date(AT) })
        .where(eq(listings.ticker, TICKER)),
    );
    const base = await run(`${replay}/delayed_provider`);
    expect(base.status).toBe(200);
    expect(base.doc.meta.source).toBe("delayed_provider");
    baseline = flat(base.doc);
  });

  /**
   * Runs one mutation and checks it: `expected` is what the domain mapping makes of the recording
   * before and after the mutation; `drifted` tells a drift verdict of the mutated field.
   */
  async function check(
    label: string,
    file: string,
    body: unknown,
    expected: { before: Map<string, string>; after: Map<string, string>; validated: Set<string> },
    drifted: (field: string) => boolean,
  ): Promise<void> {
    const r = await run(`${replay}/v/${await variant(file, body)}/delayed_provider`);
    tally.mutations += 1;
    if (r.status >= 500) tally.s5xx += 1;
    expect(r.status, label).toBe(200);
    expect(r.doc.meta.source, label).toBe("delayed_provider");
    const expectedChange = changed(expected.before, expected.after);
    const unexpected = [...changed(baseline, flat(r.doc))].filter((k) => !expectedChange.has(k));
    expect(unexpected, `${label}: figures that do not come from the field changed`).toEqual([]);
    // Validated figures the mutation took away (a value that fell back to another source is not lost).
    const lost = [...expectedChange].filter(
      (k) =>
        expected.validated.has(k) &&
        expected.before.get(k) !== "null" &&
        [undefined, "null"].includes(expected.after.get(k)),
    );
    if (r.verdicts.some((v) => v.status === "schema_drift" && drifted(v.field))) tally.byDrift += 1;
    else if (lost.length > 0) {
      const unreported = lost.filter(
        (k) => !r.verdicts.some((v) => v.status === "null" && v.field === k.slice(k.indexOf(".") + 1)),
      );
      expect(unreported, `${label}: validated figures lost without a verdict`).toEqual([]);
      tally.byNull += 1;
    } else if (expectedChange.size === 0) tally.nothingLost += 1;
    else tally.silent += 1;
  }

  const summaryPaths = leafPaths(SUMMARY_SCHEMA);
  it.each(summaryPaths)("quoteSummary %s", async (path) => {
    const before = fromSummary(readSummary("replay", summaryRoot(summaryRecording.body)).summary);
    for (const kind of kindsFor(summaryPaths.indexOf(path))) {
      const body = mutated(summaryRecording.body, summaryRoot, path, kind);
      if (body === null) return; // the recording does not carry this field
      tally.fields.add(`quoteSummary:${path}`);
      const read = readSummary("replay", summaryRoot(body));
      // A value of another type is always drift; a missing one where it names a row too.
      if (kind === "retyped" || required.has(path))
        expect(
          read.drifts.map((d) => d.path),
          `${kind} ${path}`,
        ).toContain(path);
      const after = fromSummary(read.summary).values;
      await check(
        `${kind} quoteSummary ${path}`,
        summaryRecording.file,
        body,
        { before: before.values, after, validated: before.validated },
        (f) => f === `quoteSummary:${path}`,
      );
    }
  });

  it.each(TIMESERIES.flatMap((r, i) => TIMESERIES_FIELDS.map((f, j) => [r.file, f, r, i + j] as const)))(
    "%s %s",
    async (_file, path, recording, turn) => {
      for (const kind of kindsFor(turn)) {
        const body = mutated(recording.body, timeseriesRoot, path, kind);
        if (body === null) continue;
        tally.fields.add(`${recording.file}:${path}`);
        const leaf = path.replace("result[].{series}", "");
        await check(
          `${kind} ${recording.file} ${path}`,
          recording.file,
          body,
          {
            before: fromTimeseries(recording, recording.body),
            after: fromTimeseries(recording, body),
            validated: new Set(),
          },
          (f) => f.startsWith("timeseries:") && f.endsWith(leaf),
        );
      }
    },
  );

  it("prints its count: every mutation answered, and every one reported or nothing lost", () => {
    console.log(
      `drift net: ${tally.mutations} mutations of ${tally.fields.size} fields in ${1 + TIMESERIES.length} recordings: ${tally.s5xx} × 5xx; reported by a schema_drift verdict ${tally.byDrift}, by null verdicts ${tally.byNull}; nothing lost (another source) ${tally.nothingLost}; silent (an unvalidated optional field) ${tally.silent}`,
    );
    expect(tally.s5xx).toBe(0);
    // The full net: all three kinds of each field the recordings carry; the sample: one each.
    expect(tally.mutations).toBeGreaterThan(FULL ? 390 : 130);
    expect(tally.byDrift).toBeGreaterThan(0);
  });
});
