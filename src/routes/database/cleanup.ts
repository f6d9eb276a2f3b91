import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { BadRequestError } from "../../domain/errors";
import { cleanupDatabase } from "../../services/database/cleanup";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { CleanupAnswerSchema, CleanupRequestSchema } from "./schema";

const NO_BODY =
  "A JSON body is required, so that a bare POST deletes nothing: send {} for the defaults (days_to_keep 730, dry_run false)";
const CLEANUP_FIELDS = [
  { path: "days_to_keep", message: "optional: prices older than this many days are deleted (30 to 36,500; 730)" },
  { path: "dry_run", message: "optional: true counts what a real run would delete (false)" },
];

const route = createRoute(
  withErrors({
    method: "post",
    path: "/database/cleanup",
    "x-access": "full",
    tags: ["Database administration"],
    description:
      "Deletes stored prices older than `days_to_keep` days (daily bars, 1-minute candles and coarser intraday bars; default 730, at least 30, less is a 400), monitoring logs older than 30 days (provider checks, validation results, resolved alerts) and usage logs past USAGE_LOG_RETENTION_DAYS (90 by default). With `dry_run: true` the run only counts, reporting what a real run would remove. After a real run that deleted daily bars, the screener's snapshots are recomputed and cached EOD, indicator and screener answers are dropped; a later /eod request refills deleted history it needs. The body is required: an empty or missing one is a 400 naming the fields, so that a bare POST deletes nothing; `{}` applies the defaults (a departure from the spec, whose defaults would apply to a request with no body). Needs a full-access key.",
    summary:
      "Deletes prices older than days_to_keep days, logs older than 30 days and usage logs past their retention (full-access key)",
    security: keyed,
    // A bare POST must not delete with the defaults: an empty body is refused before the validator
    // (which takes a request without a JSON body as {}).
    middleware: [
      createMiddleware<AppEnv>(async (c, next) => {
        if ((await c.req.text()).trim() === "") throw new BadRequestError(NO_BODY, CLEANUP_FIELDS);
        await next();
      }),
    ] as const,
    request: { body: { required: true, content: { "application/json": { schema: CleanupRequestSchema } } } },
    responses: {
      200: {
        description: "What was deleted, or would be with dry_run",
        content: { "application/json": { schema: CleanupAnswerSchema } },
      },
    },
  }),
);

export function registerCleanup(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const r = await cleanupDatabase({
      ctx: c.get("deps"),
      input: { daysToKeep: body.days_to_keep, dryRun: body.dry_run },
    });
    return c.json(
      {
        dry_run: r.dryRun,
        days_to_keep: r.daysToKeep,
        cutoffs: { prices_before: r.pricesBefore, logs_before: r.logsBefore, usage_logs_before: r.usageLogsBefore },
        deleted: r.counts,
      },
      200,
    );
  });
}
