import { openAlert } from "../../db/repositories/monitoring";
import { type NewCheck, saveChecks } from "../../db/repositories/provider-checks";
import { latestPublicationDay } from "../../domain/fx/publication";
import { canarySeverity } from "../../domain/monitoring/canary";
import { failedCheck } from "../../domain/monitoring/canary-checks";
import { fxCanaryChecks } from "../../domain/monitoring/fx-canary";
import { ECB } from "../../domain/provider-names";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";

/** The FX part of a canary run: its checks, and whether it opened an alert. */
export interface FxCanaryRun {
  provider: typeof ECB;
  checks: number;
  passed: number;
  failures: { ticker: string | null; field: string | null; problem: string }[];
  alert_opened: boolean;
}

/**
 * The ECB's daily file read and judged (domain/monitoring/fx-canary.ts); every check stored as the
 * fundamentals providers' are, and a `canary_failed` alert opened when one failed. A file that
 * cannot be read fails the run with one check saying why.
 */
export async function runFxCanary(ctx: Context, at: Date): Promise<FxCanaryRun> {
  const started = ctx.clock.now().getTime();
  let checks: NewCheck[];
  try {
    const rates = await ctx.providers.ecb.latest();
    const latencyMs = Math.max(0, ctx.clock.now().getTime() - started);
    checks = fxCanaryChecks(rates, latestPublicationDay(at)).map((c) => ({ ...c, latencyMs, at }));
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    checks = [failedCheck(ECB, `${err.failure}: ${err.detail}`, at)];
  }
  await saveChecks(ctx.db, checks);
  const failures = checks
    .filter((c) => !c.passed)
    .map((c) => ({ ticker: c.ticker, field: c.field, problem: c.error ?? "failed" }));
  const passed = checks.length - failures.length;
  const opened = failures.length
    ? await openAlert(ctx.db, {
        type: "canary_failed",
        severity: canarySeverity(passed, checks.length, ctx.config.ALERT_SUCCESS_RATE_CRITICAL),
        provider: ECB,
        message: `${ECB}: ${failures.length} of ${checks.length} canary checks failed (${failures
          .slice(0, 3)
          .map((f) => `${f.ticker ?? ""} ${f.field ?? ""}: ${f.problem}`.trim())
          .join("; ")})`,
        details: { run_at: at.toISOString(), failures },
        at,
      })
    : false;
  return { provider: ECB, checks: checks.length, passed, failures, alert_opened: opened };
}
