import { RateLimitedError, ServiceError } from "../../../domain/errors";
import type { Context } from "../../../platform/context";
import { ProviderError } from "../../../providers/errors";
import { addByIsin } from "./add-instrument";
import { addBySymbol } from "./add-symbol";

/**
 * Discovery on read: adds the instrument a request names (by its ISIN when given, else by the
 * ticker as a symbol). Answers null when the read should be tried again (something was added),
 * "known" when the catalogue already held all it could (the read's own 404 stands), else why
 * nothing was added, for the read's 404. The key's budget being spent is the caller's 429.
 */
export async function discover(
  ctx: Context,
  input: { ticker: string; isin?: string; exchange?: string },
): Promise<string | null> {
  try {
    const addition = input.isin
      ? await addByIsin(ctx, { via: "discovery" }, input.isin)
      : await addBySymbol(ctx, { via: "discovery" }, { symbol: input.ticker, exchange: input.exchange });
    return addition.status === "known" ? "known" : null;
  } catch (err) {
    if (err instanceof RateLimitedError) throw err;
    if (err instanceof ServiceError) return err.extra.reason ?? err.message;
    if (err instanceof ProviderError) return `it could not be looked up (${err.message}); asked again on the next read`;
    // Whatever else failed while adding (the database, say) costs the addition, never the read's own answer.
    console.warn("discovery failed", input.isin ?? input.ticker, String(err));
    return "it could not be added just now; asked again on the next read";
  }
}
