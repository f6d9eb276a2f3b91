import { findActiveListingsWithAssets, findAssetByIsin } from "../../../db/repositories/catalogue";
import { saveMiss } from "../../../db/repositories/catalogue-additions";
import { MAX_TICKER_LENGTH, missKey, placeLine, sameCompany, TICKER_CHARS } from "../../../domain/catalogue-additions";
import { BadRequestError, NoDataError, UnprocessableError } from "../../../domain/errors";
import { isinProblem } from "../../../domain/isin";
import { splitSuffix } from "../../../domain/provider-symbols";
import { VENUES } from "../../../domain/venues";
import type { Context } from "../../../platform/context";
import { ProviderError } from "../../../providers/errors";
import { type Addition, type AdditionContext, addByIsin, knownAnswer, rememberedMiss, spend } from "./add-instrument";

/** A symbol as a request names it: 1 to 10 characters of a ticker (spec Limits), upper-cased. */
export function checkedSymbol(raw: string): string {
  const symbol = raw.trim().toUpperCase();
  if (symbol.length === 0) throw new BadRequestError("symbol is empty");
  if (symbol.length > MAX_TICKER_LENGTH)
    throw new BadRequestError(
      `symbol '${symbol.slice(0, 40)}' has ${symbol.length} characters; a ticker has at most ${MAX_TICKER_LENGTH} characters (spec Limits)`,
    );
  if (!TICKER_CHARS.test(symbol)) throw new BadRequestError(`symbol '${symbol}' has characters no ticker has`);
  return symbol;
}

/**
 * Adds the instrument of a symbol (optionally on a catalogue exchange): the delayed provider's
 * search finds the line, and its ISIN must come from a source that states it for that line (the
 * directory's suggestion with the same ticker and the same company's name): never derived or
 * invented. None, or two different ones: 422 saying so. A symbol the catalogue already lists
 * answers its instrument without a provider call.
 */
export async function addBySymbol(
  ctx: Context,
  how: AdditionContext,
  input: { symbol: string; exchange?: string },
): Promise<Addition> {
  const symbol = checkedSymbol(input.symbol);
  const exchange = input.exchange?.trim().toUpperCase() || undefined;
  if (exchange && !VENUES[exchange])
    throw new BadRequestError(
      `exchange '${exchange}' is not a venue of the catalogue (${Object.keys(VENUES).join(", ")})`,
    );
  const listed = await findActiveListingsWithAssets(ctx.db, { ticker: symbol });
  const mine = listed.listings.find((l) => !exchange || l.exchange === exchange);
  if (mine) {
    const found = await findAssetByIsin(ctx.db, mine.isin);
    if (found) return knownAnswer(found);
  }
  const key = missKey({ symbol, exchange });
  const asked = `${symbol}${exchange ? ` on ${exchange}` : ""}`;
  await rememberedMiss(ctx, key);
  await spend(ctx, how.via);
  const hits = await ctx.providers.delayed.search(symbol);
  const line = hits.find((h) => {
    if (h.symbol.toUpperCase() !== symbol) return false;
    const placed = placeLine(h);
    return !exchange || ("venue" in placed && placed.venue.code === exchange);
  });
  if (!line) {
    const reason = `no provider knows ${asked}`;
    await saveMiss(ctx.db, key, 404, reason, ctx.clock.now());
    throw new NoDataError(`No data found for ${symbol}`, reason);
  }
  const placed = placeLine(line);
  if ("refused" in placed) {
    await saveMiss(ctx.db, key, 422, placed.refused, ctx.clock.now());
    throw new UnprocessableError(placed.refused);
  }

  const { base } = splitSuffix(symbol);
  const directory = ctx.providers.isinDirectory;
  const suggested = await directory.suggest(base);
  if (suggested === null)
    throw new ProviderError(directory.name, "unavailable", `its search for ${base} did not answer`);
  const stated = suggested.filter(
    (s) => (s.symbol.toUpperCase() === base || s.symbol.toUpperCase() === symbol) && sameCompany(s.name, line.name),
  );
  const isins = [...new Set(stated.map((s) => s.isin))].filter((i) => isinProblem(i) === null);
  if (isins.length !== 1) {
    const reason =
      isins.length === 0
        ? `no source states the ISIN of ${asked} (${line.name ?? "unnamed"}); an instrument joins the catalogue only under an ISIN a source states`
        : `sources state several ISINs for ${asked}: ${isins.join(", ")}; add it by ISIN`;
    await saveMiss(ctx.db, key, 422, reason, ctx.clock.now());
    throw new UnprocessableError(reason);
  }
  const isin = isins[0] as string;
  try {
    return await addByIsin(ctx, how, isin, {
      offer: { line, source: `delayed provider search for ${symbol}` },
      isinSource: `${directory.name} states ${isin} for ${base} (${stated[0]?.name})`,
    });
  } catch (err) {
    // A removed instrument, or one nobody lists after all: the symbol's next read asks nobody either.
    if (err instanceof NoDataError) await saveMiss(ctx.db, key, 404, err.extra.reason ?? err.message, ctx.clock.now());
    throw err;
  }
}
