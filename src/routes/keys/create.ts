import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { createKey } from "../../services/keys/manage-keys";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { CreatedKeySchema, CreateKeySchema, keyOut } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "post",
      path: "/keys",
      "x-access": "admin",
      tags: ["Keys"],
      summary: "Creates an API key; the key is shown once (admin)",
      description:
        "Creates a managed API key with a name, a kind fixed for its life (`full` or `read_only`) and an optional expiry, and answers it with the key itself (`mds_` and 40 hex digits) this once: only its SHA-256 is stored. The key works at once everywhere a key of its kind does. One key in force per name: a creation under the name of a key in force is a 409 naming it, so a creation sent twice (a retry) mints one key. Needs an admin key: a full-access key of the service's settings (SERVICE_API_KEYS); managed keys cannot manage keys.",
      security: keyed,
      request: { body: { required: true, content: { "application/json": { schema: CreateKeySchema } } } },
      responses: {
        200: {
          description: "The new key, with the key itself",
          content: { "application/json": { schema: CreatedKeySchema } },
        },
      },
    },
    [409],
  ),
);

export function registerCreateKey(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const deps = c.get("deps");
    const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
    const { row, key } = await createKey(deps, {
      name: body.name,
      kind: body.kind,
      expiresAt,
      rateLimit: body.rate_limit ?? null,
    });
    return c.json({ ...keyOut(row, deps.clock.now(), deps.config.KEY_RATE_LIMIT), key }, 200);
  });
}
