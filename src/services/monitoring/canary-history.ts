import { isoWithOffset } from "../../clock";
import { type CheckRow, listChecks } from "../../db/repositories/provider-checks";
import { DAY_MS } from "../../domain/instants";
import type { Context } from "../../platform/context";

/** A stored canary check as the routes show it. */
export function presentCheck(c: CheckRow) {
  return {
    provider_name: c.providerName,
    ticker: c.ticker,
    field: c.field,
    value: c.value === null ? null : Number(c.value),
    expected_min: c.expectedMin === null ? null : Number(c.expectedMin),
    expected_max: c.expectedMax === null ? null : Number(c.expectedMax),
    passed: c.success,
    latency_ms: c.latencyMs,
    error: c.error,
    checked_at: isoWithOffset(c.checkedAt),
  };
}

export interface HistoryQuery {
  provider?: string;
  ticker?: string;
  days: number;
  limit: number;
}

/** GET /health/canary/history: stored checks, newest first. */
export async function getCanaryHistory({ ctx, input }: { ctx: Context; input: HistoryQuery }) {
  const rows = await listChecks(ctx.db, {
    provider: input.provider,
    ticker: input.ticker?.toUpperCase(),
    since: new Date(ctx.clock.now().getTime() - input.days * DAY_MS),
    limit: input.limit,
  });
  return { count: rows.length, days: input.days, checks: rows.map(presentCheck) };
}
