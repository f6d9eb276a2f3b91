import { MODELS } from "../../domain/dcf/models";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { readThrough } from "../shared/read-through";
import { awaitsRate } from "./valuation-currency";
import { type DcfAnswer, type DcfRequest, valueTicker } from "./value-ticker";

/** A valuation answer read through the cache (6 hours; spec Cache lifetimes), unless `forceRefresh`. */
async function cachedValuation(
  ctx: Context,
  variant: string,
  req: DcfRequest,
  forceRefresh: boolean,
): Promise<DcfAnswer> {
  const key = cacheKeys.dcf(req.ticker, variant);
  const ttl = cacheTtls(ctx.config).dcf;
  const { value, hit } = await readThrough(ctx, {
    key,
    ttlSeconds: ttl,
    fresh: forceRefresh,
    build: () => valueTicker(ctx, req),
    // A valuation whose price waits for the ECB's rate (none yet, or a stand-in's) is not kept.
    shouldCache: (a) => !awaitsRate(a.listing_currency, a.data.statements_currency, a.price_conversion),
  });
  return hit ? { ...value, cache_hit: true } : value;
}

/** GET /dcf/{ticker}: the fcf model with the default assumptions, so the consensus is the fcf value. */
export function getDcf({ ctx, input }: { ctx: Context; input: { ticker: string; forceRefresh: boolean } }) {
  return cachedValuation(
    ctx,
    "fcf",
    { ticker: input.ticker, models: ["fcf"], nonPayerDdm: "zero" },
    input.forceRefresh,
  );
}

/** GET /dcf/{ticker}/compare: the three models side by side; a non-payer's ddm at zero with a warning. */
export function compareDcf({ ctx, input }: { ctx: Context; input: { ticker: string; forceRefresh: boolean } }) {
  return cachedValuation(
    ctx,
    "compare",
    { ticker: input.ticker, models: MODELS, nonPayerDdm: "zero" },
    input.forceRefresh,
  );
}

/** POST /dcf/{ticker}: the caller's assumptions, never cached; ddm of a non-payer is a 404. */
export function postDcf({ ctx, input }: { ctx: Context; input: Omit<DcfRequest, "nonPayerDdm"> }) {
  return valueTicker(ctx, { ...input, nonPayerDdm: "not_found" });
}
