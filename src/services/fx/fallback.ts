import { saveEuroRates } from "../../db/repositories/fx";
import type { FxWindow } from "../../domain/fx/coverage";
import { euroRatesFromH10, H10_SERIES, H10_USD_PER_EUR } from "../../domain/fx/h10";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";

/** At most this many of a window's currencies are asked of the macro provider (one request each). */
const MOST_FALLBACK_SERIES = 8;

/**
 * A recent window's rates from the macro provider's H.10 series when the ECB failed: the dollar's
 * and each asked currency's (of those it has, the first eight), stored with their source but no
 * span, so the ECB is asked again later and its rates replace these. Answers the currencies it
 * stored rates of; none when the macro provider is not configured or fails too (never throws for it).
 */
export async function storeFallbackRates(ctx: Context, w: FxWindow): Promise<string[]> {
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
