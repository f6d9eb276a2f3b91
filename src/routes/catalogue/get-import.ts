import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { MAX_IMPORT_LINES } from "../../domain/catalogue-import";
import { getImport } from "../../services/catalogue/imports/get-import";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { ImportSchema, OUTCOMES } from "./import-schema";

const route = createRoute(
  withErrors(
    {
      method: "get",
      path: "/assets/import/{id}",
      "x-access": "full",
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
            .max(2 ** 31 - 1)
            .openapi({ example: 1 }),
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

export function registerGetImport(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const q = c.req.valid("query");
    return c.json(
      await getImport(c.get("deps"), { id, offset: q.offset, limit: q.limit, outcome: q.outcome ?? null }),
      200,
    );
  });
}
