import { isoWithOffset } from "../../clock";
import {
  type AlertFilter,
  type AlertRow,
  listAlerts,
  openAlert,
  resolveAlert,
  verdictCounts,
} from "../../db/repositories/monitoring";
import { NotFoundError } from "../../domain/errors";
import { DAY_MS } from "../../domain/instants";
import { outlierSeverity, successRate } from "../../domain/monitoring/validation-stats";
import type { Context } from "../../platform/context";

const WEEK_MS = 7 * DAY_MS;
const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;

/**
 * The alert check: each provider's success rate over the last 7 days of verdicts against
 * ALERT_SUCCESS_RATE_WARNING / _CRITICAL; a rate under one opens a `high_outlier_rate` alert of that
 * severity unless one is open for the provider (it is raised to critical if need be). `only`: the
 * providers to check (a canary run checks its own), all by default.
 */
export async function checkOutlierRates(
  ctx: Context,
  only?: readonly string[],
): Promise<{ providers: number; opened: string[] }> {
  const counts = await verdictCounts(ctx.db, new Date(ctx.clock.now().getTime() - WEEK_MS));
  const providers = [...new Set(counts.map((c) => c.provider))].filter((p) => !only || only.includes(p)).sort();
  const opened: string[] = [];
  const thresholds = {
    warning: ctx.config.ALERT_SUCCESS_RATE_WARNING,
    critical: ctx.config.ALERT_SUCCESS_RATE_CRITICAL,
  };
  for (const provider of providers) {
    const own = counts.filter((c) => c.provider === provider);
    const rate = successRate(own);
    const severity = outlierSeverity(rate, thresholds);
    if (rate === null || severity === null) continue;
    const threshold = severity === "critical" ? thresholds.critical : thresholds.warning;
    const isNew = await openAlert(ctx.db, {
      type: "high_outlier_rate",
      severity,
      provider,
      message: `${provider}: ${pct(rate)} of its values valid over 7 days, under the ${severity} threshold of ${pct(threshold)}`,
      details: { success_rate: rate, values: own.reduce((s, c) => s + c.n, 0), threshold },
      at: ctx.clock.now(),
    });
    if (isNew) opened.push(provider);
  }
  return { providers: providers.length, opened };
}

function present(a: AlertRow) {
  return {
    alert_id: a.id,
    severity: a.severity,
    type: a.type,
    provider_name: a.providerName,
    message: a.message,
    details: a.details ?? {},
    created_at: isoWithOffset(a.createdAt),
    is_resolved: a.isResolved,
    resolved_at: a.resolvedAt ? isoWithOffset(a.resolvedAt) : null,
    resolution_note: a.resolutionNote,
  };
}

/** GET /health/alerts. */
export async function getAlerts({ ctx, input }: { ctx: Context; input: AlertFilter }) {
  const rows = await listAlerts(ctx.db, input);
  return { count: rows.length, alerts: rows.map(present) };
}

/** POST /health/alerts/{alert_id}/resolve: resolved now with the note; already resolved as it was; 404 unknown. */
export async function resolveAlertById({ ctx, input }: { ctx: Context; input: { id: number; note: string | null } }) {
  const r = await resolveAlert(ctx.db, input.id, input.note, ctx.clock.now());
  if (r === null) throw new NotFoundError("Alert", String(input.id));
  if (!r.resolved) return { status: "already_resolved" as const };
  return { status: "resolved" as const, alert_id: input.id, resolved_at: isoWithOffset(r.at) };
}
