import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { listKeys } from "../../services/keys/manage-keys";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { BoolParam } from "../params";
import { KeyListSchema, keyOut } from "./schema";

const route = createRoute(
  withErrors({
    method: "get",
    path: "/keys",
    "x-access": "admin",
    tags: ["Keys"],
    summary: "Lists the managed API keys (admin)",
    description:
      "The managed keys, newest first: id, name, kind, the key's first characters, expiry, creation, last use (to the minute) and state (`active`, `expired`, `revoked`); never a key or its hash. Revoked keys only with `include_revoked=true`. The keys of the settings are not listed. Needs an admin key.",
    security: keyed,
    request: { query: z.object({ include_revoked: BoolParam }) },
    responses: {
      200: { description: "The keys", content: { "application/json": { schema: KeyListSchema } } },
    },
  }),
);

export function registerListKeys(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const deps = c.get("deps");
    const rows = await listKeys(deps, c.req.valid("query").include_revoked);
    const now = deps.clock.now();
    return c.json({ count: rows.length, keys: rows.map((r) => keyOut(r, now, deps.config.KEY_RATE_LIMIT)) }, 200);
  });
}
