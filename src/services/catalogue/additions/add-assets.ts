import { MAX_ITEMS_PER_REQUEST } from "../../../domain/catalogue-additions";
import { BadRequestError, ServiceError } from "../../../domain/errors";
import type { Context } from "../../../platform/context";
import { ProviderError } from "../../../providers/errors";
import { type Addition, type AdditionContext, addByIsin } from "./add-instrument";
import { addBySymbol } from "./add-symbol";

/** One thing to add: an ISIN, or a symbol (optionally on a catalogue exchange). */
export type AdditionItem = { isin: string } | { symbol: string; exchange?: string };

/** What one item came to: the addition, or the error it would have answered alone. */
export type ItemResult =
  | { asked: AdditionItem; addition: Addition }
  | { asked: AdditionItem; error: { code: ServiceError["code"]; message: string; reason?: string } };

/** Adds one item (an ISIN or a symbol); errors are thrown as the single-item route answers them. */
export function addItem(ctx: Context, how: AdditionContext, item: AdditionItem): Promise<Addition> {
  return "isin" in item ? addByIsin(ctx, how, item.isin) : addBySymbol(ctx, how, item);
}

/**
 * Adds each item in turn (providers are paced; one at a time keeps a list's calls within the
 * request's deadline and the key's budget): each answers on its own, a failure of one is that
 * item's error, never the list's.
 */
export async function addItems(
  ctx: Context,
  how: AdditionContext,
  items: readonly AdditionItem[],
): Promise<ItemResult[]> {
  if (items.length > MAX_ITEMS_PER_REQUEST)
    throw new BadRequestError(`at most ${MAX_ITEMS_PER_REQUEST} items per request; POST /assets/import takes more`);
  const out: ItemResult[] = [];
  for (const asked of items) {
    try {
      out.push({ asked, addition: await addItem(ctx, how, asked) });
    } catch (err) {
      if (err instanceof ServiceError) {
        out.push({ asked, error: { code: err.code, message: err.message, reason: err.extra.reason } });
      } else if (err instanceof ProviderError) {
        out.push({ asked, error: { code: "UPSTREAM_UNAVAILABLE", message: err.message } });
      } else throw err;
    }
  }
  return out;
}
