import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { addItem, addItems } from "../../services/catalogue/additions/add-assets";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import {
  AdditionListSchema,
  AdditionRequestSchema,
  AdditionSchema,
  additionStatus,
  EXAMPLE_ISIN,
  toAddition,
  toAdditionList,
} from "./additions-schema";

const route = createRoute(
  withErrors(
    {
      method: "post",
      path: "/assets",
      "x-mcp-tool": "add_instrument",
      "x-access": "full",
      tags: ["Assets and listings"],
      description:
        "Adds an instrument to the catalogue by `{isin}` or by `{symbol, exchange?}`, or up to 25 of them as `items` (each answered on its own with its `http_status`). The providers are asked which lines exist; each line is verified (a supported venue, a chart that answers, a currency it can be stored in) and stored with a primary listing chosen by rule and `found_by`, the record of where each field came from; by symbol, the ISIN must come from a source that states it. It answers 201 when something was added (status `added`, `extended` or `reactivated` after a removal) and 200 when nothing changed (`known`). Errors: 400 for a wrong check digit or a malformed symbol, 404 when no provider knows it and 422 when its lines are all on unsupported venues or no source states the symbol's ISIN (both remembered for a day), 429 past the key's CATALOGUE_ADDITIONS_PER_MINUTE (30), 503 when a provider failed; needs a full-access key.",
      summary:
        "Adds an instrument by ISIN or by symbol (its ISIN from a source that states it), with its listings on supported venues (full-access key)",
      security: keyed,
      // The example adds an instrument of the sandbox's world (tools/sandbox/world.ts); the nets remove it again.
      "x-example-status": 201,
      "x-touches": [EXAMPLE_ISIN],
      request: {
        body: {
          required: true,
          content: { "application/json": { schema: AdditionRequestSchema } },
        },
      },
      responses: {
        200: {
          description: "Known already: nothing changed (or, for items, nothing was added)",
          content: { "application/json": { schema: AdditionSchema.or(AdditionListSchema) } },
        },
        201: {
          description: "Added: the instrument, a new listing of it, or its return after a removal",
          content: { "application/json": { schema: AdditionSchema.or(AdditionListSchema) } },
        },
      },
    },
    [404, 422],
  ),
);

export function registerAddAssets(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const ctx = c.get("deps");
    if ("items" in body) {
      const list = toAdditionList(await addItems(ctx, { via: "request" }, body.items));
      return c.json(list, list.added > 0 ? 201 : 200);
    }
    const addition = await addItem(ctx, { via: "request" }, body);
    return c.json(toAddition(addition), additionStatus(addition));
  });
}
