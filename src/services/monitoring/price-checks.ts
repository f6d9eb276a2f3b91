import { findActiveListings } from "../../db/repositories/catalogue";
import { adjustmentSummary } from "../../db/repositories/corporate-actions";
import { findingsSummary, listingsWithKinds, saveFindings } from "../../db/repositories/price-findings";
import { readDailyBars } from "../../db/repositories/prices";
import type { NewCheck } from "../../db/repositories/provider-checks";
import { scaleBars } from "../../domain/bars";
import { dayBefore } from "../../domain/ingest-plan";
import { addDays } from "../../domain/instants";
import type { CanaryInstrument } from "../../domain/monitoring/canary-references";
import type { Finding, FindingKind } from "../../domain/price-sanity";
import { periodAdjustments } from "../../domain/price-sanity-sources";
import { DELAYED } from "../../domain/provider-names";
import { currencyScale } from "../../domain/provider-symbols";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";

/**
 * The canary's checks of the delayed provider's prices as stored: the adjusted closes against the
 * events, the price sanity net's findings, and the provider's weekly and monthly bars against the
 * daily ones (the one glitch the daily ingestion cannot see).
 */

/** Listings a run names (the counts of all are in /health/stats). */
const LISTINGS_NAMED = 10;

const base = (at: Date) => ({ provider: DELAYED, latencyMs: null, expected: null, at }) as const;

/** A failed check for each listing whose stored adjusted closes disagree with its stored events (ingestion's checks). */
export async function adjustmentChecks(ctx: Context, at: Date): Promise<NewCheck[]> {
  const summary = await adjustmentSummary(ctx.db, LISTINGS_NAMED);
  return summary.listings.map((l) => {
    const first = l.detail[0];
    return {
      ...base(at),
      ticker: l.ticker,
      field: "adjusted_close",
      passed: false,
      value: first?.observed ?? null,
      expected: first ? [first.expected, first.expected] : null,
      error: `adjusted closes disagree with the stored dividends and splits at ${l.mismatches} session(s)${first ? `, first ${first.date} (${first.kind})` : ""}`,
    };
  });
}

/**
 * Kinds that make stored prices wrong: a listing holding one fails the canary. The others are gaps
 * and extras of the provider's history (a missing or repeated session, a bar of a closed day, a
 * fund's distribution): counted, and no failure.
 */
const WRONG_PRICES: ReadonlySet<FindingKind> = new Set([
  "split_missing",
  "split_unapplied",
  "split_doubled",
  "unit_100x",
  "ohlc_inconsistent",
  "non_positive",
  "period_adjusted",
]);

/**
 * The sanity net's findings as the canary counts them: when there are any, one check of them all
 * (its value their count, failed when any is of a kind that makes prices wrong, its text their
 * count by kind), and a failed check for each listing named with wrong prices (see WRONG_PRICES).
 */
export async function sanityChecks(ctx: Context, at: Date): Promise<NewCheck[]> {
  const s = await findingsSummary(ctx.db, LISTINGS_NAMED);
  const total = s.byKind.reduce((n, k) => n + k.findings, 0);
  if (total === 0) return [];
  const wrong = s.byKind.filter((k) => WRONG_PRICES.has(k.kind));
  const counts = s.byKind.map((k) => `${k.kind} ${k.findings} (${k.listings} listing(s))`).join(", ");
  const summary: NewCheck = {
    ...base(at),
    ticker: null,
    field: "price_sanity",
    passed: wrong.length === 0,
    value: total,
    error: wrong.length ? `the price sanity net holds ${counts}` : null,
  };
  const named = wrong.length ? await listingsWithKinds(ctx.db, [...WRONG_PRICES], LISTINGS_NAMED) : [];
  const listings: NewCheck[] = named.map((l) => ({
    ...base(at),
    ticker: l.ticker,
    field: "price_sanity",
    passed: false,
    value: l.findings,
    error: `the price sanity net found ${l.kinds.join(", ")} in the stored bars (${l.findings} such finding(s), first ${l.first})`,
  }));
  return [summary, ...listings];
}

/** The window of daily bars the weekly and monthly check compares: a quarter, whole periods inside it. */
const PERIOD_CHECK_DAYS = 120;

/**
 * (i) The provider's weekly and monthly bars of a reference instrument against its stored daily
 * ones: what departs is stored as `period_adjusted` findings of the listing, and fails its check.
 * An instrument with no stored bars is not checked (nothing to compare with); a provider failure is
 * a failed check like any other.
 */
export async function periodChecks(ctx: Context, inst: CanaryInstrument, at: Date): Promise<NewCheck[]> {
  const db = ctx.db;
  const [listing] = await findActiveListings(db, { ticker: inst.ticker, currency: inst.currency });
  if (!listing) return [];
  const to = dayBefore(ctx.clock.today());
  const from = addDays(to, -PERIOD_CHECK_DAYS);
  const daily = await readDailyBars(db, listing.id, { from, to });
  if (daily.length === 0) return [];
  const asked = await Promise.all(
    (
      [
        ["1wk", "weekly"],
        ["1mo", "monthly"],
      ] as const
    ).map(async ([interval, resolution]) => {
      try {
        const h = await ctx.providers.delayed.history(inst.symbol, from, to, interval);
        const scale = currencyScale(h.currency, listing.currency) ?? 1;
        return { interval, resolution, found: periodAdjustments(daily, scaleBars(h.bars, scale), resolution) };
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        return { interval, resolution, error: `${err.failure}: ${err.detail}` };
      }
    }),
  );
  // A week and a month that start on the same session are one finding of that session, with both intervals.
  const byDate = new Map<string, Finding>();
  for (const a of asked)
    for (const f of a.found ?? []) {
      const seen = byDate.get(f.date);
      byDate.set(
        f.date,
        seen ? { ...seen, evidence: { ...seen.evidence, interval: `${seen.evidence.interval}, ${a.resolution}` } } : f,
      );
    }
  // The provider's word on the window compared: a finding no longer true there goes (an interval
  // that failed leaves the window's findings as they were).
  if (asked.every((a) => a.found))
    await saveFindings(db, listing.id, { kinds: ["period_adjusted"], from, to }, [...byDate.values()], at);
  const checks: NewCheck[] = asked.map((a) => {
    const field = `${a.interval}_close`;
    if (!a.found)
      return { ...base(at), ticker: inst.ticker, field, passed: false, value: null, error: a.error ?? null };
    const first = a.found[0];
    return {
      ...base(at),
      ticker: inst.ticker,
      field,
      passed: a.found.length === 0,
      value: a.found.length,
      error: first
        ? `the provider's ${a.resolution} closes depart from the daily closes at ${a.found.length} period(s), first ${first.date}${first.evidence.matches_adjusted ? " (they repeat the dividend-adjusted closes)" : ""}`
        : null,
    };
  });
  return checks;
}
