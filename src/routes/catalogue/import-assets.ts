import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { MAX_IMPORT_LINES, readImportCsv, readImportItems } from "../../domain/catalogue-import";
import { BadRequestError, ServiceError } from "../../domain/errors";
import { startImport } from "../../services/catalogue/imports/start-import";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { EXAMPLE_IMPORT_ISIN, ImportRequestSchema, ImportSchema } from "./import-schema";

const route = createRoute(
  withErrors({
    method: "post",
    path: "/assets/import",
    "x-access": "full",
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

export function registerImportAssets(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
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
}
