import { pruneMisses } from "./db/repositories/catalogue-additions";
import { pruneRuns } from "./db/repositories/screen-runs";
import { MISS_REMEMBERED_MS } from "./domain/catalogue-additions";
import { YIELD_SERIES } from "./domain/macro/yield-series";
import { cacheKeys } from "./platform/cache";
import { resumeImports } from "./services/catalogue/imports/resume-imports";
import { startDueRefresh } from "./services/catalogue/refresh/start-refresh";
import { applyLogRetention } from "./services/database/cleanup";
import { refreshRates } from "./services/fx/refresh";
import { fetchRiskFreeRate } from "./services/macro/get-rates";
import { checkOutlierRates } from "./services/monitoring/alerts";
import { describeRun, runCanary } from "./services/monitoring/canary";
import { restoreSubscriptions } from "./services/realtime/restore";
import { runWork } from "./work";

/** A scheduled job: what it is called in the logs, and the work (its summary is logged). */
interface Job {
  name: string;
  run(env: Env): Promise<string>;
}

/**
 * Every currency's risk-free rate read from the macro provider and stored, one series after the
 * other (FRED allows about 120 requests a minute); each cached answer is dropped so the next read
 * takes it. One series failing fails the job, after the others are read.
 */
const refreshMacroRates: Job = {
  name: "macro_refresh",
  run: (env) =>
    runWork(env)(async (deps) => {
      const read: string[] = [];
      const failed: string[] = [];
      for (const series of YIELD_SERIES) {
        const r = await fetchRiskFreeRate(deps, series);
        if ("failure" in r) failed.push(`${series.id}: ${r.failure}`);
        else {
          await deps.cache.delete(cacheKeys.macro(series.id));
          read.push(`${r.row.seriesId} ${r.row.value} observed ${r.row.observationDate}`);
        }
      }
      if (failed.length) throw new Error(`${failed.join("; ")} (read: ${read.join(", ") || "none"})`);
      return read.join(", ");
    }),
};

/**
 * The day's euro reference rates, once the ECB has published them (16:00 Frankfurt time): every
 * currency's recent days stored, from the 90-day file (older years are fetched when asked for).
 */
const refreshFxRates: Job = {
  name: "fx_refresh",
  run: (env) =>
    runWork(env)(async (deps) => {
      const r = await refreshRates(deps);
      if (r.failure) throw new Error(r.failure);
      return r.latest ? `rates stored through ${r.latest}` : "no rate stored yet";
    }),
};

/** Monitoring logs past 30 days and usage logs past USAGE_LOG_RETENTION_DAYS; prices are never touched here. */
const logRetention: Job = {
  name: "log_retention",
  run: (env) =>
    runWork(env)(async (deps) => {
      const c = await applyLogRetention(deps);
      // A catalogue miss is believed a day: older ones are never read again.
      const misses = await pruneMisses(deps.db, new Date(deps.clock.now().getTime() - 2 * MISS_REMEMBERED_MS));
      // A queued screen's run answers its own day only.
      const runs = await pruneRuns(deps.db, deps.clock.today());
      return `deleted ${c.usage_logs} usage log(s), ${c.provider_checks} provider check(s), ${c.validation_results} validation result(s), ${c.alerts} resolved alert(s), ${misses} catalogue miss(es), ${runs} queued screen run(s) of earlier days`;
    }),
};

/** Each provider's success rate over 7 days against the ALERT_* thresholds: `high_outlier_rate` alerts. */
const alertCheck: Job = {
  name: "alert_check",
  run: (env) =>
    runWork(env)(async (deps) => {
      const r = await checkOutlierRates(deps);
      return `${r.providers} provider(s) checked, alerts opened for: ${r.opened.join(", ") || "none"}`;
    }),
};

/** Every fundamentals provider against the reference instruments; the alert check and the provider summary follow. */
const canaryRun: Job = {
  name: "canary",
  run: (env) => runWork(env)(async (deps) => describeRun(await runCanary(deps))),
};

/**
 * The catalogue refresh: each venue whose session closed half an hour ago and no run has covered
 * (src/domain/catalogue-refresh.ts `dueScope`), so every venue once per trading day whatever its
 * time zone and summer time, none on its holidays; a new instance's first run covers everything.
 */
const catalogueRefresh: Job = {
  name: "catalogue_refresh",
  run: (env) =>
    runWork(env)(async (deps) => {
      const r = await startDueRefresh({ ctx: deps });
      if (!r) return "nothing due";
      const { run, started } = r;
      return started
        ? `run ${run.id} (${run.trigger}): ${run.queued} listing(s) queued for ${JSON.stringify(run.sessions)}`
        : `run ${run.id} is still going; what is due starts at a later tick`;
    }),
};

/** Imports whose queued lines lost their messages (a stopped stack, a purged queue): sent again. */
const importResume: Job = {
  name: "import_resume",
  run: (env) =>
    runWork(env)(async (deps) => {
      const r = await resumeImports(deps);
      return r.lines ? `${r.lines} import line(s) sent again in ${r.messages} message(s)` : "nothing lost";
    }),
};

const restoreStreams: Job = {
  name: "restore_subscriptions",
  run: (env) =>
    runWork(env)(async (deps) => `${(await restoreSubscriptions(deps)).length} stored subscription(s) streaming`),
};

/**
 * Every scheduled job, by the Cron Trigger that runs it (wrangler.toml `[triggers] crons` lists the
 * same expressions; docs/operations.md has the table).
 */
export const CRON_JOBS: Readonly<Record<string, readonly Job[]>> = {
  "*/5 * * * *": [restoreStreams, catalogueRefresh, importResume],
  // DGS10 is published for the previous business day in the US afternoon; 06:15 UTC reads it the
  // next morning (with the monthly yields of the other currencies).
  "15 6 * * *": [refreshMacroRates],
  // The quietest hour of the markets served.
  "45 3 * * *": [logRetention],
  // The daily canary, before the European markets open (the figures are the previous close's).
  "30 6 * * *": [canaryRun],
  // The daily look at the validation layer's verdicts (a canary run also ends with it).
  "0 7 * * *": [alertCheck],
  // The ECB publishes at 16:00 Frankfurt time: 15:20 UTC is after it in winter (15:00 UTC) and summer (14:00 UTC).
  "20 15 * * *": [refreshFxRates],
};

/**
 * Runs the jobs of one trigger, each on its own: a failing job is logged and never stops the
 * others. Answers what each did ("ok: ..." or "failed: ...").
 */
export async function runScheduled(cron: string, env: Env): Promise<Record<string, string>> {
  const jobs = CRON_JOBS[cron];
  if (!jobs) {
    console.warn("cron: no job for", cron);
    return {};
  }
  const results = await Promise.allSettled(jobs.map((j) => j.run(env)));
  const report: Record<string, string> = {};
  results.forEach((r, i) => {
    const name = jobs[i]?.name ?? String(i);
    report[name] = r.status === "fulfilled" ? `ok: ${r.value}` : `failed: ${String(r.reason)}`;
  });
  console.log("cron", cron, JSON.stringify(report));
  return report;
}
