import { and, count, desc, eq, gte, sql } from "drizzle-orm";
import type { VerdictCount } from "../../domain/monitoring/validation-stats";
import type { Db } from "../client";
import { alerts, validationResults } from "../schema";

/** Verdicts of the validation layer since an instant, counted by provider, field and status. */
export async function verdictCounts(db: Db, since: Date): Promise<VerdictCount[]> {
  const rows = await db
    .select({
      provider: validationResults.providerName,
      field: validationResults.field,
      status: validationResults.status,
      n: count(),
    })
    .from(validationResults)
    .where(gte(validationResults.validatedAt, since))
    .groupBy(validationResults.providerName, validationResults.field, validationResults.status);
  return rows;
}

/**
 * A provider's drift verdicts since an instant, by place: on how many instrument-days each was
 * seen, when last, and its latest reason; the places seen last first (at most `limit`).
 */
export async function driftPlaces(
  db: Db,
  input: { provider: string; since: Date; limit: number },
): Promise<{ field: string; seen: number; lastSeen: Date; reason: string | null }[]> {
  const lastSeen = sql<Date>`max(${validationResults.validatedAt})`.mapWith(validationResults.validatedAt);
  return db
    .select({
      field: validationResults.field,
      seen: count(),
      lastSeen,
      reason: sql<
        string | null
      >`(array_agg(${validationResults.reason} order by ${validationResults.validatedAt} desc))[1]`,
    })
    .from(validationResults)
    .where(
      and(
        eq(validationResults.providerName, input.provider),
        eq(validationResults.status, "schema_drift"),
        gte(validationResults.validatedAt, input.since),
      ),
    )
    .groupBy(validationResults.field)
    .orderBy(desc(lastSeen), validationResults.field)
    .limit(input.limit);
}

export type AlertRow = typeof alerts.$inferSelect;
export type AlertSeverity = AlertRow["severity"];
export type AlertType = AlertRow["type"];

/**
 * Opens an alert unless one of its provider and type is open already (the partial unique index
 * decides, so two checks at once open one). An open alert whose severity rises is raised to it.
 * Answers whether a new alert was opened.
 */
export async function openAlert(
  db: Db,
  a: {
    type: AlertType;
    severity: AlertSeverity;
    provider: string;
    message: string;
    details: Record<string, unknown>;
    at: Date;
  },
): Promise<boolean> {
  const rows = await db
    .insert(alerts)
    .values({
      type: a.type,
      severity: a.severity,
      providerName: a.provider,
      message: a.message,
      details: a.details,
      createdAt: a.at,
    })
    .onConflictDoUpdate({
      target: [alerts.providerName, alerts.type],
      targetWhere: sql`${alerts.isResolved} = false`,
      set: {
        severity: sql`case when excluded.severity = 'critical' then 'critical' else ${alerts.severity} end`,
      },
    })
    // xmax is 0 on a row this statement inserted, and set on one it updated.
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  return rows[0]?.inserted === true;
}

export interface AlertFilter {
  includeResolved: boolean;
  severity?: AlertSeverity;
  provider?: string;
  limit: number;
}

/** Alerts, newest first. */
export async function listAlerts(db: Db, f: AlertFilter): Promise<AlertRow[]> {
  const conditions = [];
  if (!f.includeResolved) conditions.push(eq(alerts.isResolved, false));
  if (f.severity) conditions.push(eq(alerts.severity, f.severity));
  if (f.provider) conditions.push(eq(alerts.providerName, f.provider));
  return db
    .select()
    .from(alerts)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(alerts.createdAt), desc(alerts.id))
    .limit(f.limit);
}

/**
 * Resolves an open alert with a note; an alert already resolved is left as it is. Null for an
 * unknown alert.
 */
export async function resolveAlert(
  db: Db,
  id: number,
  note: string | null,
  at: Date,
): Promise<{ resolved: true; at: Date } | { resolved: false } | null> {
  const [row] = await db
    .update(alerts)
    .set({ isResolved: true, resolvedAt: at, resolutionNote: note })
    .where(and(eq(alerts.id, id), eq(alerts.isResolved, false)))
    .returning({ resolvedAt: alerts.resolvedAt });
  if (row?.resolvedAt) return { resolved: true, at: row.resolvedAt };
  const [exists] = await db.select({ id: alerts.id }).from(alerts).where(eq(alerts.id, id)).limit(1);
  return exists ? { resolved: false } : null;
}

/** Open alerts by provider. */
export async function openAlertCounts(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ provider: alerts.providerName, n: count() })
    .from(alerts)
    .where(eq(alerts.isResolved, false))
    .groupBy(alerts.providerName);
  return new Map(rows.map((r) => [r.provider, r.n]));
}
