import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { storableText } from "../db/text";
import type { UsageEntry } from "../domain/usage";
import type { DriftEntry } from "../providers/drift-journal";
import { isolate } from "../providers/isolate";
import { restPolicyOf } from "../providers/rest";
import { inBackground } from "../routes/background";
import type { AppEnv } from "../routes/env";
import { recordDrifts } from "../services/monitoring/record-drifts";
import { answeringRoute } from "./answering-route";

/** Keeps work going after the answer; a plain `app.request` in a unit test has no execution context. */
function keepAlive(c: Context<AppEnv>, work: Promise<unknown>): void {
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    // No execution context: the promise settles on its own.
  }
}

/** The request's usage row: its route template (never the query), the key's kind, status and time. */
function usageEntry(c: Context<AppEnv>, started: number, ended: number): UsageEntry {
  const template = answeringRoute(c);
  const tickerParam = template.includes(":ticker") ? c.req.param("ticker") : undefined;
  return {
    id: c.get("requestId"),
    method: c.req.method,
    route: template === "" ? "(unmatched)" : template,
    ticker: tickerParam ? storableText(tickerParam.toUpperCase(), 32) : null,
    keyKind: c.get("keyKind"),
    keyId: c.get("deps").caller?.keyId ?? null,
    status: c.res.status,
    latencyMs: ended - started,
    createdAt: new Date(started),
  };
}

/**
 * Everything a request leaves for after its answer, in one middleware: its usage entry goes to the
 * usage sink (the queue, batched across the isolate's requests); the schema drift its provider
 * clients read around is recorded only when its journal has entries; the provider rests it started
 * or ended are shared only when there are some. Before the work, the other isolates' rests are read
 * when due (every few seconds per isolate). None of it slows or fails the answer.
 */
export const afterAnswer = createMiddleware<AppEnv>(async (c, next) => {
  const deps = c.get("deps");
  const { rests } = isolate;
  const policy = restPolicyOf(deps.config);
  const started = deps.clock.now().getTime();
  if (rests.pullDue(started, policy))
    keepAlive(c, rests.pullRests(deps.cache, started, policy).catch(warn("provider rests not read")));
  await next();
  const entry = usageEntry(c, started, deps.clock.now().getTime());
  // An MCP message that made an API request is logged by that request's own row, under its route.
  const recorded = c.get("usageByMessageCall")
    ? Promise.resolve()
    : deps.usage.record(entry).catch(warn(`usage entry not recorded ${entry.route}`));
  keepAlive(
    c,
    recorded.finally(() => deps.close()),
  );
  if (rests.hasUnpublished())
    keepAlive(c, rests.pushRests(deps.cache, deps.clock.now().getTime()).catch(warn("provider rests not shared")));
  const journal = deps.journal.drifts;
  if (journal.size > 0) recordDriftAfter(c, journal.take());
});

const warn = (what: string) => (err: unknown) => console.warn(what, String(err));

/** The drift a request's clients read around, recorded after the answer with dependencies of its own. */
function recordDriftAfter(c: Context<AppEnv>, entries: DriftEntry[]): void {
  try {
    inBackground(c, async (deps) => {
      for (const e of entries) deps.journal.drifts.report(e.subject, [e.drift]);
      await recordDrifts(deps);
    });
  } catch {
    // No execution context (app.request in a plain unit test): the drift is logged, not recorded.
    console.warn("schema drift not recorded (no execution context)", entries.length);
  }
}
