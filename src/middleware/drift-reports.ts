import { createMiddleware } from "hono/factory";
import { inBackground } from "../routes/background";
import type { AppEnv } from "../routes/env";
import { recordDrifts } from "../services/monitoring/record-drifts";

/**
 * Records the schema drift the request's provider clients read around (its drift journal) after
 * the answer has gone, with a database pool of its own: most requests read none and pay nothing.
 */
export const driftReports = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const journal = c.get("deps").journal.drifts;
  if (journal.size === 0) return;
  const entries = journal.take();
  try {
    inBackground(c, async (deps) => {
      for (const e of entries) deps.journal.drifts.report(e.subject, [e.drift]);
      await recordDrifts(deps);
    });
  } catch {
    // No execution context (app.request in a plain unit test): the drift is logged, not recorded.
    console.warn("schema drift not recorded (no execution context)", entries.length);
  }
});
