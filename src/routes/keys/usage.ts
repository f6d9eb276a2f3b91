import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { getKeyUsage, MAX_USAGE_DAYS } from "../../services/usage/get-key-usage";
import type { AppEnv } from "../env";
import { ErrorSchema, keyed, withErrors } from "../openapi";
import { DateParam } from "../params";

const Family = z.object({
  family: z.string().openapi({ example: "/eod" }),
  requests: z.number().int(),
  errors: z.number().int().openapi({ description: "Answers with a status of 400 or more" }),
  server_errors: z.number().int().openapi({ description: "Answers with a status of 500 or more" }),
  mean_ms: z.number().int(),
  p50_ms: z.number().int(),
  p95_ms: z.number().int(),
});

const UsageSchema = z
  .object({
    key: z.string().openapi({ example: "key_0123456789abcdef" }),
    from: z.string(),
    to: z.string(),
    requests: z.number().int(),
    errors: z.number().int(),
    server_errors: z.number().int(),
    families: z.array(Family),
  })
  .openapi("KeyUsage");

const route = createRoute(
  withErrors({
    method: "get",
    path: "/usage",
    "x-access": "any",
    tags: ["Keys"],
    summary: "A key's requests, errors and answer times by route family",
    description: `The requests of a key from \`from\` to \`to\` (UTC days, both included; the last 7 days by default, at most ${MAX_USAGE_DAYS}), in all and by route family (the route's first segment: /eod, /technical, /workspace …), each with its errors (status 400 or more), server errors (500 or more) and answer times (mean, median, 95th percentile, ms), busiest first. \`key\` names the key by its id (\`key_…\` for a managed key, \`cfg_…\` for one of the settings, as usage rows do); without it, the calling key. A key reads its own usage; another key's needs an admin key (403). Rows arrive through the usage queue within seconds of the answer.`,
    security: keyed,
    request: {
      query: z.object({
        key: z
          .string()
          .regex(/^(key_[0-9a-f]{16}|cfg_[0-9a-f]{8})$/, "a key id: key_ and 16 hex digits, or cfg_ and 8")
          .optional(),
        from: DateParam.optional(),
        to: DateParam.optional(),
      }),
    },
    responses: {
      200: { description: "The key's usage", content: { "application/json": { schema: UsageSchema } } },
      // Any key may call it; only an admin key may name another key.
      403: {
        description: "Another key's usage, asked by a key that is not an admin",
        content: { "application/json": { schema: ErrorSchema } },
      },
    },
  }),
);

export function registerGetUsage(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const u = await getKeyUsage(c.get("deps"), c.req.valid("query"));
    return c.json(
      {
        key: u.keyId,
        from: u.from,
        to: u.to,
        requests: u.totals.requests,
        errors: u.totals.errors,
        server_errors: u.totals.serverErrors,
        families: u.families.map((f) => ({
          family: f.family,
          requests: f.requests,
          errors: f.errors,
          server_errors: f.serverErrors,
          mean_ms: f.meanMs,
          p50_ms: f.p50Ms,
          p95_ms: f.p95Ms,
        })),
      },
      200,
    );
  });
}
