import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { updateKey } from "../../services/keys/manage-keys";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { KeyIdParam, KeySchema, keyOut, UpdateKeySchema } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "patch",
      path: "/keys/{id}",
      "x-access": "admin",
      tags: ["Keys"],
      summary: "Renames a key or changes its expiry (admin)",
      description:
        "Changes a managed key's `name`, `expires_at` (null removes the expiry; a past instant is a 400) or `rate_limit` (requests a minute; null: the service's KEY_RATE_LIMIT); its kind is fixed at creation. A revoked or unknown key is a 404; a name another key in force has is a 409. Other isolates see a new expiry or limit within 60 seconds. Needs an admin key.",
      security: keyed,
      "x-example-status": 404,
      request: {
        params: KeyIdParam,
        body: { required: true, content: { "application/json": { schema: UpdateKeySchema } } },
      },
      responses: {
        200: { description: "The key as it is now", content: { "application/json": { schema: KeySchema } } },
      },
    },
    [404, 409],
  ),
);

export function registerUpdateKey(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const deps = c.get("deps");
    const change = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.expires_at !== undefined
        ? { expiresAt: body.expires_at === null ? null : new Date(body.expires_at) }
        : {}),
      ...(body.rate_limit !== undefined ? { rateLimit: body.rate_limit } : {}),
    };
    const row = await updateKey(deps, c.req.valid("param").id, change);
    return c.json(keyOut(row, deps.clock.now(), deps.config.KEY_RATE_LIMIT), 200);
  });
}
