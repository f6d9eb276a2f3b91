import { recordVerdicts } from "../../db/repositories/validation-results";
import { driftVerdict } from "../../domain/fundamentals/validation";
import type { Context } from "../../platform/context";
import type { DriftEntry } from "../../providers/drift-journal";

/**
 * What this isolate has recorded today (`<day>|<subject>|<provider>|<document>|<path>`): a provider
 * that stays drifted costs one write a day per place and isolate, not one per request.
 */
const recordedToday = new Set<string>();
let recordedDay = "";

/**
 * Records what the work's provider clients reported to its drift journal as schema_drift verdicts
 * (one per provider, subject, document path and day: a retry counts once). Nothing new to record
 * costs no query; without a database the drift is logged instead.
 */
export async function recordDrifts(ctx: Context): Promise<number> {
  const day = ctx.clock.today();
  if (day !== recordedDay) {
    recordedToday.clear();
    recordedDay = day;
  }
  const keyOf = (e: DriftEntry) => `${day}|${e.subject}|${e.drift.provider}|${e.drift.document}|${e.drift.path}`;
  const entries = ctx.journal.drifts.take().filter((e) => !recordedToday.has(keyOf(e)));
  if (entries.length === 0) return 0;
  if (!ctx.databaseConfigured) {
    console.warn("schema drift not recorded (no database)", entries.length);
    return 0;
  }
  const bySubject = new Map<string, typeof entries>();
  for (const e of entries) bySubject.set(e.subject, [...(bySubject.get(e.subject) ?? []), e]);
  const at = ctx.clock.now();
  for (const [subject, list] of bySubject) {
    await recordVerdicts(ctx.db, { ticker: subject, day, at, verdicts: list.map((e) => driftVerdict(e.drift)) });
    for (const e of list) recordedToday.add(keyOf(e));
  }
  return entries.length;
}
