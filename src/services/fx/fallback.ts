import { saveEuroRates } from "../../db/repositories/fx";
import type { FxWindow } from "../../domain/fx/coverage";
import { euroRatesFromH10, H10_SERIES, H10_USD_PER_EUR } from "../../domain/fx/h10";
import { publicationDays } from "../../domain/fx/publication";
import type { EuroRate } from "../../domain/fx/rates";
import { DELAYED, MACRO } from "../../domain/provider-names";
import { cacheKeys } from "../../platform/cache/keys";
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

/** The fallback providers are asked once a minute per window at most, whatever the requests. */
const FALLBACK_RETRY_SECONDS = 60;

/**
 * A recent window's rates from the fallback providers when the ECB failed, stored with their
 * source but no span (so the ECB is asked again later and its rates replace these): first the
 * macro provider's H.10 series (the dollar's and the currencies it has), then, for each currency
 * with publication days still without a rate (H.10 is released weekly; the zloty has none), the
 * delayed provider's pair (`EURPLN=X`) for those days, each provider at most eight requests. Asked
 * once a minute per window at most; never throws for a failing provider; answers which
 * currencies each stood in for.
 */
export async function storeFallbackRates(ctx: Context, w: FxWindow): Promise<StoodIn> {
  const claimed = await ctx.cache.setIfAbsent(
    cacheKeys.fxFallback(w.currencies, w.from, w.to),
    true,
    FALLBACK_RETRY_SECONDS,
  );
  if (!claimed) return {};
  const macro = await fromH10(ctx, w);
  const covered = new Set(macro.map((r) => `${r.currency}:${r.day}`));
  const days = publicationDays(w.from, w.to);
  const gaps = new Map(w.currencies.map((c) => [c, new Set(days.filter((d) => !covered.has(`${c}:${d}`)))] as const));
  const delayed = await fromPairs(ctx, w, gaps);
  const named = (rows: readonly EuroRate[]) => [...new Set(rows.map((r) => r.currency))];
  return {
    ...(macro.length ? { [MACRO]: named(macro) } : {}),
    ...(delayed.length ? { [DELAYED]: named(delayed) } : {}),
  };
}

/** The H.10 rates (stored) of the window's currencies the macro provider has (the dollar's, and crossed through it). */
async function fromH10(ctx: Context, w: FxWindow): Promise<EuroRate[]> {
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
    return rows;
  } catch (err) {
    if (err instanceof ProviderError) return [];
    throw err;
  }
}

/**
 * The delayed provider's daily closes of each currency against the euro (`EURPLN=X`: zlotys per
 * euro) for its days without a rate (`gaps`; the pairs trade on TARGET holidays too, which are
 * none of them). A close is the market's at the end of the London day, not the 14:15 fixing: a
 * stand-in, said by its source. A pair quoted in another currency than asked is not taken.
 */
async function fromPairs(
  ctx: Context,
  w: FxWindow,
  gaps: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<EuroRate[]> {
  const wanted = [...gaps].filter(([, days]) => days.size).slice(0, MOST_FALLBACK_SERIES);
  const pairs = await Promise.all(
    wanted.map(async ([currency, days]): Promise<EuroRate[]> => {
      try {
        const pair = await ctx.providers.delayed.pairCloses(`EUR${currency}=X`, w.from, w.to);
        if (pair.currency !== null && pair.currency !== currency) return [];
        return pair.closes
          .filter((c) => days.has(c.date) && c.close > 0)
          .map((c) => ({ day: c.date, currency, rate: String(c.close), source: DELAYED }));
      } catch (err) {
        if (err instanceof ProviderError) return [];
        throw err;
      }
    }),
  );
  const rows = pairs.flat();
  if (rows.length) await saveEuroRates(ctx.db, rows, ctx.clock.now());
  return rows;
}
