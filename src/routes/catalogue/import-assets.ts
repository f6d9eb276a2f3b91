import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { MAX_IMPORT_LINES, readImportCsv, readImportItems } from "../../domain/catalogue-import";
import { BadRequestError, ServiceError } from "../../domain/errors";
import { getImport } from "../../services/catalogue/imports/get-import";
import { startImport } from "../../services/catalogue/imports/start-import";
import type { AppEnv } from "../env";
import { keyed, textParam, withErrors } from "../openapi";

/** Another share of the sandbox's world (Nasdaq): the documented example of an import. */
const EXAMPLE_IMPORT_ISIN = "USW000000027";

const OUTCOMES = ["queued", "added", "known", "refused", "failed"] as const;

const ImportRequestSchema = z
  .object({
    items: z
      .array(
        z.object({
          isin: textParam(64).optional(),
          symbol: textParam(64).optional(),
          exchange: textParam(16).optional(),
        }),
      )
      .min(1)
      .max(MAX_IMPORT_LINES),
    ingest: z.boolean().optional(),
  })
  .openapi("ImportRequest", { example: { items: [{ isin: EXAMPLE_IMPORT_ISIN }] } });

export const ImportSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(["running", "finished"]),
    lines: z.number().int(),
    ingest: z.boolean(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    counts: z.object(
      Object.fromEntries(OUTCOMES.map((o) => [o, z.number().int()])) as Record<(typeof OUTCOMES)[number], z.ZodNumber>,
    ),
    page: z.object({ offset: z.number().int(), limit: z.number().int(), outcome: z.enum(OUTCOMES).nullable() }),
    line_results: z.array(
      z.object({
        line: z.number().int(),
        asked: z.string(),
        outcome: z.enum(OUTCOMES),
        reason: z.string().nullable(),
        isin: z.string().nullable(),
      }),
    ),
  })
  .openapi("Import");

const start = createRoute(
  withErrors({
    method: "post",
    path: "/assets/import",
    tags: ["Assets and listings"],
    description:
      "Bulk-adds instruments: up to 10,000 lines, sent either as JSON `{items: [{isin} | {symbol, exchange?}], ingest?}` or as a CSV body (one ISIN or ticker per line, an optional exchange column and header row) with `?ingest=true|false`. The import is recorded, lines that cannot be read are refused at once with their reason, and the rest are worked through the `catalogue-import` queue as POST /assets would add them (with `ingest`, the ten-year prices of each added instrument are stored too). It answers 202 with the import's id and counts, to be watched with GET /assets/import/{id}; sending the same body again while it runs returns that same import. Needs a full-access key; bodies up to 1 MiB; 415 for a body that is neither JSON nor CSV, 400 for an empty import or more than 10,000 lines.",
    summary: `Imports up to ${MAX_IMPORT_LINES} ISINs and symbols (JSON items, or CSV with ?ingest=), worked through a queue; GET /assets/import/{id} watches it (full-access key; bodies up to 1 MiB)`,
    security: keyed,
    "x-example-status": 202,
    "x-touches": [EXAMPLE_IMPORT_ISIN],
    request: {
      query: z.object({ ingest: z.enum(["true", "false"]).optional() }),
      // Not `required`: the JSON schema is then checked only on a JSON body, never on a CSV one.
      body: {
        required: false,
        content: {
          "application/json": { schema: ImportRequestSchema },
          "text/csv": { schema: z.string().openapi({ example: "isin,exchange\nUS00287Y1091,\nAZN.L,LSE\n" }) },
        },
      },
    },
    responses: {
      202: { description: "Recorded and queued", content: { "application/json": { schema: ImportSchema } } },
    },
  }),
);

const watch = createRoute(
  withErrors(
    {
      method: "get",
      path: "/assets/import/{id}",
      tags: ["Assets and listings"],
      description:
        "Progress of a bulk import: `running` or `finished`, the number of lines per outcome (`queued`, `added`, `known`, `refused`, `failed`) and a page of line results, each with the line as written, its outcome, the ISIN found and the reason. `outcome` filters the page, `offset` (default 0) and `limit` (default 100, at most 1000) page through it; an unknown id is a 404. Unlike the other catalogue reads, this route needs a full-access key.",
      summary: "An import's counts by outcome and a page of its lines, each with why",
      security: keyed,
      request: {
        params: z.object({
          id: z.coerce
            .number()
            .int()
            .min(1)
            .max(2 ** 31 - 1),
        }),
        query: z.object({
          outcome: z.enum(OUTCOMES).optional(),
          offset: z.coerce.number().int().min(0).max(MAX_IMPORT_LINES).default(0),
          limit: z.coerce.number().int().min(0).max(1000).default(100),
        }),
      },
      responses: { 200: { description: "The import", content: { "application/json": { schema: ImportSchema } } } },
    },
    [404],
  ),
);

export function registerImportAssets(api: OpenAPIHono<AppEnv>) {
  api.openapi(start, async (c) => {
    const type = c.req.header("content-type") ?? "";
    let lines: ReturnType<typeof readImportCsv>;
    let ingest = c.req.valid("query").ingest === "true";
    if (type.startsWith("text/csv") || type.startsWith("text/plain")) {
      lines = readImportCsv(await c.req.text());
    } else if (type.startsWith("application/json")) {
      const body = c.req.valid("json") as z.infer<typeof ImportRequestSchema> | undefined;
      if (!body?.items) throw new BadRequestError("the import holds no items");
      lines = readImportItems(body.items);
      ingest = body.ingest ?? ingest;
    } else throw new ServiceError("UNSUPPORTED_MEDIA_TYPE", "Send the import as application/json or text/csv");
    if (lines.length > MAX_IMPORT_LINES)
      throw new BadRequestError(`the import holds ${lines.length} lines; at most ${MAX_IMPORT_LINES} per import`);
    return c.json(await startImport(c.get("deps"), { lines, ingest }), 202);
  });
  api.openapi(watch, async (c) => {
    const { id } = c.req.valid("param");
    const q = c.req.valid("query");
    return c.json(
      await getImport(c.get("deps"), { id, offset: q.offset, limit: q.limit, outcome: q.outcome ?? null }),
      200,
    );
  });
}
