import { isoWithOffset } from "../../clock";
import { driftPlaces, openAlertCounts } from "../../db/repositories/monitoring";
import {
  type CheckAggregate,
  checkAggregates,
  dailyChecks,
  latestRuns,
  listChecks,
} from "../../db/repositories/provider-checks";
import { NotFoundError } from "../../domain/errors";
import { DAY_MS } from "../../domain/instants";
import { type StatusLabel, statusLabel } from "../../domain/monitoring/canary";
import { round4 } from "../../domain/monitoring/validation-stats";
import { CANARY_PROVIDERS, isCanaryProvider } from "../../domain/provider-names";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { presentCheck } from "./canary-history";

const round1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);
const rateOf = (a: Pick<CheckAggregate, "checks" | "passed">) => round4(a.passed / a.checks);
const daysAgo = (ctx: Context, days: number) => new Date(ctx.clock.now().getTime() - days * DAY_MS);

/** Provider health entry (spec). */
export interface ProviderHealthEntry {
  name: string;
  is_healthy: boolean;
  success_rate_7d: number;
  avg_latency_ms: number | null;
  last_check: string | null;
  canary_passed: boolean | null;
  active_alerts: number;
  status_label: StatusLabel;
}

/** What the cache keeps of the summary: the entries' derived fields, and each provider's latest run for /health. */
interface CachedSummary {
  checked_at: string;
  providers: {
    name: string;
    success_rate_7d: number;
    last_run: { at: string; answered: boolean } | null;
  }[];
}

/** Every provider checked in the last 7 days, from the database. */
async function entriesFromDatabase(ctx: Context) {
  const db = ctx.db;
  const [aggregates, runs, alerts] = await Promise.all([
    checkAggregates(db, daysAgo(ctx, 7)),
    latestRuns(db),
    openAlertCounts(db),
  ]);
  return aggregates.map((a) => {
    const rate = rateOf(a);
    const run = runs.get(a.provider);
    const entry: ProviderHealthEntry = {
      name: a.provider,
      is_healthy: statusLabel(rate) === "OK",
      success_rate_7d: rate,
      avg_latency_ms: round1(a.avgLatencyMs),
      last_check: a.lastCheck ? isoWithOffset(a.lastCheck) : null,
      canary_passed: run?.passed ?? null,
      active_alerts: alerts.get(a.provider) ?? 0,
      status_label: statusLabel(rate),
    };
    return { entry, run };
  });
}

/** The provider summary, computed from the stored checks and written to the cache for an hour (after each canary run). */
export async function writeHealthSummary(ctx: Context): Promise<void> {
  const rows = await entriesFromDatabase(ctx);
  const summary: CachedSummary = {
    checked_at: isoWithOffset(ctx.clock.now()),
    providers: rows.map(({ entry, run }) => ({
      name: entry.name,
      success_rate_7d: entry.success_rate_7d,
      last_run: run ? { at: run.at.toISOString(), answered: run.answered } : null,
    })),
  };
  await ctx.cache.set(cacheKeys.healthSummary(), summary, cacheTtls(ctx.config).health_summary);
}

function tally(entries: ProviderHealthEntry[]) {
  const n = (label: StatusLabel) => entries.filter((e) => e.status_label === label).length;
  return { total_providers: entries.length, healthy: n("OK"), degraded: n("DEGRADED"), down: n("DOWN") };
}

/**
 * GET /health/providers: the summary the last canary run cached (within the hour), else the
 * database's. From the cache, as the spec says, latency, last check and canary outcome are null and
 * active alerts 0 (`source` tells which); on a new instance before any run, no providers.
 */
export async function getProvidersHealth({ ctx }: { ctx: Context }) {
  const cached = await ctx.cache.get<CachedSummary>(cacheKeys.healthSummary());
  if (cached) {
    const entries = cached.providers.map(
      (p): ProviderHealthEntry => ({
        name: p.name,
        is_healthy: statusLabel(p.success_rate_7d) === "OK",
        success_rate_7d: p.success_rate_7d,
        avg_latency_ms: null,
        last_check: null,
        canary_passed: null,
        active_alerts: 0,
        status_label: statusLabel(p.success_rate_7d),
      }),
    );
    return { checked_at: cached.checked_at, ...tally(entries), providers: entries, source: "cache" as const };
  }
  const entries = (await entriesFromDatabase(ctx)).map((r) => r.entry);
  return {
    checked_at: isoWithOffset(ctx.clock.now()),
    ...tally(entries),
    providers: entries,
    source: "database" as const,
  };
}

/**
 * The delayed provider's latest canary run as the cached summary has it (for /health, which must
 * not wait on the database): when it ran and whether the provider answered. Null without a run
 * within the hour.
 */
export async function latestCanaryReach(
  ctx: Context,
  provider: string,
): Promise<{ at: string; answered: boolean } | null> {
  const cached = await ctx.cache.get<CachedSummary>(cacheKeys.healthSummary());
  return cached?.providers.find((p) => p.name === provider)?.last_run ?? null;
}

/** How many places of drift the detail lists. */
const DRIFT_PLACES = 50;

/** Drift by place: on how many instrument-days each was seen, when last, and what was seen. */
function driftSummary(places: Awaited<ReturnType<typeof driftPlaces>>) {
  return {
    total: places.reduce((s, p) => s + p.seen, 0),
    places: places.map((p) => ({
      field: p.field,
      seen: p.seen,
      last_seen: isoWithOffset(p.lastSeen),
      reason: p.reason,
    })),
  };
}

/** How many failed checks the detail of a provider lists. */
const RECENT_FAILURES = 20;

/**
 * GET /health/providers/{provider_name}: the label and both rates (rolling 7 and 30 days), latency,
 * checks by day and the latest failures over the last `days` UTC days (today included), open alerts. A monitored provider not yet checked answers with nulls
 * and empty lists; a provider the canary does not watch is a 404.
 */
export async function getProviderHealth({ ctx, input }: { ctx: Context; input: { provider: string; days: number } }) {
  const { provider, days } = input;
  if (!isCanaryProvider(provider))
    throw new NotFoundError("Provider", provider, `monitored providers: ${CANARY_PROVIDERS.join(", ")}`);
  const db = ctx.db;
  // The window is whole UTC days: today and the days - 1 before it.
  const since = new Date(Date.parse(`${ctx.clock.today()}T00:00:00Z`) - (days - 1) * DAY_MS);
  const [week, month, window, daily, failures, runs, alerts, drifts] = await Promise.all([
    checkAggregates(db, daysAgo(ctx, 7), provider),
    checkAggregates(db, daysAgo(ctx, 30), provider),
    checkAggregates(db, since, provider),
    dailyChecks(db, provider, since),
    listChecks(db, { provider, since, onlyFailed: true, limit: RECENT_FAILURES }),
    latestRuns(db),
    openAlertCounts(db),
    driftPlaces(db, { provider, since, limit: DRIFT_PLACES }),
  ]);
  const rate7 = week[0] ? rateOf(week[0]) : null;
  const run = runs.get(provider);
  return {
    name: provider,
    status: rate7 === null ? null : statusLabel(rate7),
    is_healthy: rate7 === null ? null : statusLabel(rate7) === "OK",
    success_rate_7d: rate7,
    success_rate_30d: month[0] ? rateOf(month[0]) : null,
    days,
    avg_latency_ms: round1(window[0]?.avgLatencyMs ?? null),
    last_check: month[0]?.lastCheck ? isoWithOffset(month[0].lastCheck) : null,
    canary_passed: run?.passed ?? null,
    daily_stats: daily.map((d) => ({
      date: d.date,
      checks: d.checks,
      passed: d.passed,
      success_rate: rateOf(d),
      avg_latency_ms: round1(d.avgLatencyMs),
    })),
    recent_failures: failures.map(presentCheck),
    schema_drift: driftSummary(drifts),
    active_alerts: alerts.get(provider) ?? 0,
  };
}
