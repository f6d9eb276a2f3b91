import { z } from "@hono/zod-openapi";
import { REFRESH_VENUES } from "../../domain/catalogue-refresh";
import type { RefreshRun } from "../../services/catalogue/refresh/start-refresh";

const DateMap = z.record(z.string(), z.string());

export const RefreshRunSchema = z
  .object({
    id: z.number().int(),
    trigger: z.enum(["cron", "request", "first_run"]),
    status: z.enum(["running", "finished"]),
    started_at: z.string().openapi({ example: "2026-11-27T17:00:00.000Z" }),
    finished_at: z.string().nullable(),
    duration_seconds: z.number().nullable().openapi({ description: "Null while running" }),
    sessions: DateMap.openapi({
      description: "Each venue refreshed, with the session (its last closed one) it was refreshed to",
      example: { XETRA: "2026-11-27" },
    }),
    skipped: DateMap.openapi({
      description: "Venues a scheduled run left out, with why (a holiday, refreshed already, not closed yet)",
      example: { LSE: "2026-12-28: holiday: Boxing Day (substitute day)" },
    }),
    listings: z.object({
      queued: z.number().int().openapi({ description: "Listings handed to the queue when the run started" }),
      pending: z.number().int().openapi({ description: "Not done yet (waiting, or waiting for a retry)" }),
      refreshed: z.number().int().openapi({ description: "New bars stored" }),
      unchanged: z.number().int().openapi({ description: "Nothing new: every bar up to the session was stored" }),
      failed: z.number().int(),
    }),
    bars_written: z.number().int(),
    provider_requests: z.number().int(),
    failures: z
      .array(
        z.object({
          ticker: z.string(),
          exchange: z.string().nullable(),
          reason: z.string(),
          attempts: z.number().int(),
        }),
      )
      .openapi({ description: "The failed listings with the providers' reasons (the first 100)" }),
  })
  .openapi("RefreshRun");

export const RefreshRunsSchema = z
  .object({ running: z.boolean(), count: z.number().int(), runs: z.array(RefreshRunSchema) })
  .openapi("RefreshRuns");

export const RefreshStartSchema = z
  .object({
    started: z.boolean().openapi({ description: "False when a run was already going: `run` is that one" }),
    run: RefreshRunSchema,
  })
  .openapi("RefreshStart");

export const RefreshRequestSchema = z
  .object({
    exchanges: z
      .array(z.enum(REFRESH_VENUES as [string, ...string[]]))
      .min(1)
      .max(REFRESH_VENUES.length)
      .optional()
      .openapi({ description: "Venues to refresh (catalogue exchange codes); every venue when absent" }),
  })
  .strict()
  .openapi("RefreshRequest", { example: { exchanges: ["NYSEARCA"] } });

export function toRefreshRun(r: RefreshRun): z.infer<typeof RefreshRunSchema> {
  const { counts: c } = r;
  return {
    id: r.id,
    trigger: r.trigger,
    status: r.finishedAt ? "finished" : "running",
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
    duration_seconds: r.finishedAt ? (r.finishedAt.getTime() - r.startedAt.getTime()) / 1000 : null,
    sessions: r.sessions,
    skipped: r.skipped,
    listings: {
      queued: r.queued,
      pending: c.pending,
      refreshed: c.refreshed,
      unchanged: c.unchanged,
      failed: c.failed,
    },
    bars_written: c.barsWritten,
    provider_requests: c.providerRequests,
    failures: r.failures,
  };
}
