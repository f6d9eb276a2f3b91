import type { Context } from "../../platform/context";

/**
 * Where converted answers sit in the cache, and their dropping: a converted answer is cached under
 * a key whose variant starts `FX-<currency>`, so that all of them match one pattern; when rates of
 * recent days are stored, they go (an answer that carried an earlier day's rate is rebuilt at the
 * day's own).
 */
export const convertedVariant = (currency: string) => `FX-${currency.toUpperCase()}`;

/** The header a converted answer carries while a bar's own rate may still come (the edge keeps none such). */
export const FX_PROVISIONAL_HEADER = "x-fx-provisional";

/** Every cached converted answer of the price routes: the pattern of each route's keys. */
const CONVERTED_PATTERNS = ["eod:*:FX-*"];

/** Drops every cached converted answer; answers how many went. */
export async function dropConvertedAnswers(ctx: Context): Promise<number> {
  let n = 0;
  for (const p of CONVERTED_PATTERNS) n += await ctx.cache.deletePattern(p);
  return n;
}
