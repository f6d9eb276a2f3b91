// What the four valuation routes (and the workspace's valuation widgets) share.
import { z } from "@hono/zod-openapi";
import { BoolParam, TickerParam } from "../params";
import { DcfResultSchema } from "./schema";

/**
 * What the hardening nets run first so that the example request makes sense: the valuation reads
 * only what the deep enrichment stored.
 */
export const ENRICHED_FIRST = "/fundamental/deep?ticker=MC.PA&sections=highlights";

export const DcfTicker = TickerParam.openapi({ example: "MC.PA" });
export const params = z.object({ ticker: DcfTicker });
export const forceRefresh = BoolParam.openapi({ description: "Recompute instead of answering the cached valuation" });
export const NEVER_ENRICHED = "Never enriched (the body names the missing data: call GET /fundamental/deep first)";
export const result = (description: string) => ({
  200: { description, content: { "application/json": { schema: DcfResultSchema } } },
});
