import { recordVerdicts } from "../../db/repositories/validation-results";
import type { Deps } from "../../deps";
import { driftVerdict } from "../../domain/fundamentals/validation";

/**
 * Records what the work's provider clients reported to its drift journal as schema_drift verdicts
 * (one per provider, subject, document path and day: a retry counts once). Nothing to record costs
 * no query; without a database the drift is logged instead.
 */
export async function recordDrifts(ctx: Deps): Promise<number> {
  const entries = ctx.drifts.take();
  if (entries.length === 0) return 0;
  if (!ctx.db.configured) {
    console.warn("schema drift not recorded (no database)", entries.length);
    return 0;
  }
  const bySubject = new Map<string, typeof entries>();
  for (const e of entries) bySubject.set(e.subject, [...(bySubject.get(e.subject) ?? []), e]);
  const day = ctx.clock.today();
  const at = ctx.clock.now();
  for (const [subject, list] of bySubject)
    await recordVerdicts(ctx.db.db, { ticker: subject, day, at, verdicts: list.map((e) => driftVerdict(e.drift)) });
  return entries.length;
}
