import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { KEY_REVOCATION_SECONDS, revokeKey } from "../../services/keys/manage-keys";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { KeyIdParam, KeySchema, keyOut } from "./schema";

const route = createRoute(
  withErrors(
    {
      method: "delete",
      path: "/keys/{id}",
      "x-access": "admin",
      tags: ["Keys"],
      summary: "Revokes a key (admin)",
      description: `Revokes a managed key: refused at once by the isolate that revoked it and by every other within ${KEY_REVOCATION_SECONDS} seconds (an isolate reads a key at most once a minute). The key's row stays, revoked, so that usage rows still name it; revoking it again answers it as it is. An unknown key is a 404. Needs an admin key.`,
      security: keyed,
      "x-example-status": 404,
      request: { params: KeyIdParam },
      responses: {
        200: { description: "The key, revoked", content: { "application/json": { schema: KeySchema } } },
      },
    },
    [404],
  ),
);

export function registerRevokeKey(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const deps = c.get("deps");
    const row = await revokeKey(deps, c.req.valid("param").id);
    return c.json(keyOut(row, deps.clock.now(), deps.config.KEY_RATE_LIMIT), 200);
  });
}
