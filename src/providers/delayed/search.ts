import { z } from "zod";
import { DELAYED } from "../../domain/provider-names";
import { ProviderError } from "../errors";

/**
 * A search answer is a list of results of several kinds (the provider's own quotes, and items of
 * other sources with only a name and a link): each is read alone, and one that names no symbol is
 * not a quote.
 */
const searchSchema = z.object({ quotes: z.array(z.unknown()) });
const text = (v: unknown) => (typeof v === "string" ? v : undefined);

export interface SearchHit {
  symbol: string;
  exchange: string | null;
  name: string | null;
  quoteType: string | null;
}

/** The quotes of a search answer (HTTP `status`), each read alone; an answer of another shape fails. */
export function searchHitsOf(body: unknown, status: number): SearchHit[] {
  const parsed = searchSchema.safeParse(body);
  if (!parsed.success)
    throw new ProviderError(DELAYED, "bad_response", `search answer of unexpected shape (HTTP ${status})`);
  return parsed.data.quotes.flatMap((item) => {
    const h = (item ?? {}) as Record<string, unknown>;
    const symbol = text(h.symbol);
    if (!symbol) return [];
    return [
      {
        symbol,
        exchange: text(h.exchange) ?? null,
        name: text(h.longname) ?? text(h.shortname)?.trim() ?? null,
        quoteType: text(h.quoteType) ?? null,
      },
    ];
  });
}
