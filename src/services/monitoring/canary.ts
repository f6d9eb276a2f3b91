import { openAlert } from "../../db/repositories/monitoring";
import { type NewCheck, saveChecks } from "../../db/repositories/provider-checks";
import { recordVerdicts } from "../../db/repositories/validation-results";
import { canarySeverity } from "../../domain/monitoring/canary";
import { failedCheck } from "../../domain/monitoring/canary-checks";
import { CANARY_INSTRUMENTS, CANARY_REFERENCES_VERSION } from "../../domain/monitoring/canary-references";
import {
  CANARY_PROVIDERS,
  DELAYED,
  FUNDAMENTAL_PROVIDERS,
  type FundamentalProvider,
} from "../../domain/provider-names";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { isolate } from "../../providers/isolate";
import { checkOutlierRates } from "./alerts";
import { probe } from "./canary-probe";
import { type FxCanaryRun, runFxCanary } from "./fx-canary";
import { adjustmentChecks, periodChecks, sanityChecks } from "./price-checks";
import { writeHealthSummary } from "./provider-health";

export interface ProviderRun {
  provider: FundamentalProvider;
  checks: number;
  passed: number;
  failures: { ticker: string | null; field: string | null; problem: string }[];
  /** A canary_failed alert was opened by this run (none when one was open already). */
  alert_opened: boolean;
}

/**
 * One provider's part of a run: every reference instrument it covers, asked at once; each value
 * through the validation layer (the verdicts stored like any request's) and against its expected
 * range; every check stored; a `canary_failed` alert when a check failed, unless one is open. A
 * provider that covers no reference instrument (not loaded, say) fails the run with one check
 * saying so.
 */
async function runProvider(ctx: Context, provider: FundamentalProvider, at: Date): Promise<ProviderRun> {
  const probes = (await Promise.all(CANARY_INSTRUMENTS.map((inst) => probe(ctx, provider, inst, at)))).filter(
    (p) => p !== null,
  );
  const checks: NewCheck[] = probes.length
    ? probes.flatMap((p) => p.checks)
    : [failedCheck(provider, "not asked: the provider is not loaded or covers no reference instrument", at)];
  // The delayed provider's prices as stored: a listing whose adjusted closes disagree with its dividends and
  // splits fails, and so does one the sanity net found wrong prices in, or whose weekly or monthly bars
  // depart from its daily ones.
  if (provider === DELAYED) {
    checks.push(...(await adjustmentChecks(ctx, at)));
    checks.push(...(await Promise.all(CANARY_INSTRUMENTS.map((inst) => periodChecks(ctx, inst, at)))).flat());
    checks.push(...(await sanityChecks(ctx, at)));
  }
  const db = ctx.db;
  await saveChecks(db, checks);
  for (const p of probes) {
    const ticker = p.checks[0]?.ticker;
    if (ticker && p.verdicts.length)
      await recordVerdicts(db, { ticker, day: ctx.clock.today(), at, verdicts: p.verdicts });
  }
  const failures = checks
    .filter((c) => !c.passed)
    .map((c) => ({ ticker: c.ticker, field: c.field, problem: c.error ?? "failed" }));
  const passed = checks.length - failures.length;
  let opened = false;
  if (failures.length) {
    const listed = failures.map((f) => `${[f.ticker, f.field].filter(Boolean).join(" ")}: ${f.problem}`);
    opened = await openAlert(db, {
      type: "canary_failed",
      severity: canarySeverity(passed, checks.length, ctx.config.ALERT_SUCCESS_RATE_CRITICAL),
      provider,
      message: `${provider}: ${failures.length} of ${checks.length} canary checks failed (${listed.slice(0, 3).join("; ")}${listed.length > 3 ? "; ..." : ""})`,
      details: { run_at: at.toISOString(), references_version: CANARY_REFERENCES_VERSION, failures },
      at,
    });
  }
  return { provider, checks: checks.length, passed, failures, alert_opened: opened };
}

export interface CanaryRun {
  run_at: string;
  references_version: string;
  providers: ProviderRun[];
  /** The ECB's daily file, judged in a run of every provider (not in one provider's). */
  fx: FxCanaryRun | null;
  /** Providers whose part of the run broke (a database error, say): nothing of theirs may be stored. */
  errors: { provider: FundamentalProvider; error: string }[];
  high_outlier_rate_alerts_opened: string[];
}

/** How long a run may hold its lock: runs take seconds; a holder that died frees it by then. */
const RUN_LOCK_SECONDS = 120;

/**
 * A canary run (spec: States and transitions, canary run): every fundamentals provider, or one,
 * against the reference instruments; then the alert check of those providers' verdicts, and the
 * provider summary written to the cache for an hour. All checks of a provider's run carry the
 * run's start instant, so its latest run is one set of rows. One provider's part breaking does not
 * stop the others'.
 *
 * Null, without running, while the same run (all, or the same provider) holds its lock in the
 * cache, whichever isolate started it: a burst of requests, or the cron beside a request, costs
 * one run of the providers' pages, not one per request.
 */
export async function runCanary(ctx: Context, only?: FundamentalProvider): Promise<CanaryRun | null> {
  const lock = cacheKeys.canaryRunning(only ?? "all");
  const at = ctx.clock.now();
  if (!(await ctx.cache.setIfAbsent(lock, at.toISOString(), RUN_LOCK_SECONDS))) return null;
  try {
    const names = only ? [only] : [...FUNDAMENTAL_PROVIDERS];
    // The canary is how a resting provider is seen to be back: it asks them all (the ECB too, in a run of all).
    isolate.rests.liftForProbe(only ? names : [...CANARY_PROVIDERS]);
    const [settled, fx] = await Promise.all([
      Promise.allSettled(names.map((p) => runProvider(ctx, p, at))),
      only
        ? null
        : runFxCanary(ctx, at).catch((err: unknown) => {
            console.error("canary: the FX run broke", err);
            return null;
          }),
    ]);
    const providers: ProviderRun[] = [];
    const errors: CanaryRun["errors"] = [];
    settled.forEach((r, i) => {
      const provider = names[i] as FundamentalProvider;
      if (r.status === "fulfilled") providers.push(r.value);
      else {
        console.error("canary: the run of", provider, "broke", r.reason);
        errors.push({ provider, error: String(r.reason) });
      }
    });
    const outliers = await checkOutlierRates(ctx, names);
    await writeHealthSummary(ctx);
    return {
      run_at: at.toISOString(),
      references_version: CANARY_REFERENCES_VERSION,
      providers,
      fx,
      errors,
      high_outlier_rate_alerts_opened: outliers.opened,
    };
  } finally {
    isolate.rests.endProbe(only ? [only] : [...CANARY_PROVIDERS]);
    await ctx.cache.delete(lock);
  }
}

/** A run in one line, for the logs: each provider's passes over checks, and the alerts it opened. */
export function describeRun(r: CanaryRun | null): string {
  if (r === null) return "not run: the same run was in progress in this isolate";
  const each = r.providers.map(
    (p) => `${p.provider} ${p.passed}/${p.checks}${p.alert_opened ? " (canary_failed alert opened)" : ""}`,
  );
  const broke = r.errors.map((e) => `${e.provider} broke: ${e.error}`);
  const fx = r.fx
    ? [`${r.fx.provider} ${r.fx.passed}/${r.fx.checks}${r.fx.alert_opened ? " (canary_failed alert opened)" : ""}`]
    : [];
  return `references ${r.references_version}: ${[...each, ...fx, ...broke].join(", ")}`;
}
