import { saveEuroRates } from "../../db/repositories/fx";
import type { FxWindow } from "../../domain/fx/coverage";
import { euroRatesFromH10, H10_SERIES, H10_USD_PER_EUR } from "../../domain/fx/h10";
import { isPublicationDay } from "../../domain/fx/publication";
import type { EuroRate } from "../../domain/fx/rates";
import { DELAYED, MACRO } from "../../domain/provider-names";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";

/** At most this many of a window's currencies are asked of each fallback provider (one request each). */
const MOST_FALLBACK_SERIES = 8;

/** Which currencies each fallback provider's rates stand in for. */
export type StoodIn = Partial<Record<typeof MACRO | typeof DELAYED, string[]>>;

/** What an answer says of the stand-ins: "the macro provider's rates of USD, JPY stand in". */
export function standInNote(stood: StoodIn): string | null {
  const parts = Object.entries(stood)
    .filter(([, cs]) => cs?.length)
    .map(([p, cs]) => `the ${p === MACRO ? "macro" : "delayed"} provider's rates of ${(cs as string[]).join(", ")}`);
  return parts.length ? `${parts.join(" and ")} stand in` : null;
}

/**
 * A recent window's rates from the fallback providers when the ECB failed, stored with their
 * source but no span (so the ECB is asked again later and its rates replace these): first the
 * macro provider's H.10 series (the dollar's and the currencies it has), then, for the currencies
 * still without, the delayed provider's pairs (`EURPLN=X`), each at most eight requests. Never
 * throws for a failing provider; answers which currencies each stood in for.
 */
export async function storeFallbackRates(ctx: Context, w: FxWindow): Promise<StoodIn> {
  const macro = await fromH10(ctx, w);
  const rest = w.currencies.filter((c) => !macro.includes(c));
  const delayed = rest.length ? await fromPairs(ctx, w, rest) : [];
  return { ...(macro.length ? { [MACRO]: macro } : {}), ...(delayed.length ? { [DELAYED]: delayed } : {}) };
}

/** The H.10 rates of the window's currencies the macro provider has (the dollar's, and crossed through it). */
async function fromH10(ctx: Context, w: FxWindow): Promise<string[]> {
  const fred = ctx.providers.macro;
  if (!fred.configured) return [];
  const wanted = w.currencies.filter((c) => c === "USD" || H10_SERIES[c]).slice(0, MOST_FALLBACK_SERIES);
  if (!wanted.length) return [];
  try {
    const read = async (id: string) =>
      new Map((await fred.observations(id, w.from, w.to)).map((o) => [o.date, o.value]));
    const others = wanted.filter((c) => c !== "USD");
    const [usd, ...series] = await Promise.all([
      read(H10_USD_PER_EUR),
      ...others.map((c) => read((H10_SERIES[c] as { id: string }).id)),
    ]);
    const rows = euroRatesFromH10(
      usd ?? new Map(),
      new Map(others.map((c, i) => [c, series[i] ?? new Map<string, string>()])),
    ).filter((r) => wanted.includes(r.currency));
    await saveEuroRates(ctx.db, rows, ctx.clock.now());
    return [...new Set(rows.map((r) => r.currency))];
  } catch (err) {
    if (err instanceof ProviderError) return [];
    throw err;
  }
}

/**
 * The delayed provider's daily closes of each currency against the euro (`EURPLN=X`: zlotys per
 * euro), on the ECB's publication days only (the pairs trade on TARGET holidays too). A close is
 * the market's at the end of the London day, not the 14:15 fixing: a stand-in, said by its source.
 */
async function fromPairs(ctx: Context, w: FxWindow, currencies: readonly string[]): Promise<string[]> {
  const pairs = await Promise.all(
    currencies.slice(0, MOST_FALLBACK_SERIES).map(async (currency): Promise<EuroRate[]> => {
      try {
        const closes = await ctx.providers.delayed.pairCloses(`EUR${currency}=X`, w.from, w.to);
        return closes
          .filter((c) => isPublicationDay(c.date) && c.close > 0)
          .map((c) => ({ day: c.date, currency, rate: String(c.close), source: DELAYED }));
      } catch (err) {
        if (err instanceof ProviderError) return [];
        throw err;
      }
    }),
  );
  const rows = pairs.flat();
  if (rows.length) await saveEuroRates(ctx.db, rows, ctx.clock.now());
  return [...new Set(rows.map((r) => r.currency))];
}
