import { isoWithOffset } from "../../clock";
import { BadRequestError } from "../../domain/errors";
import { FIRST_PUBLICATION, type FxWindow } from "../../domain/fx/coverage";
import { EUR } from "../../domain/fx/currencies";
import { type PairRate, pairRate, ROUNDING_RULE } from "../../domain/fx/rates";
import { addDays, earlierDay, laterDay } from "../../domain/instants";
import type { Context } from "../../platform/context";
import { givenRange } from "../date-range";
import { noRates, ratedCurrency, readRateBook } from "./read-book";
import { CARRY_LOOKBACK_DAYS } from "./store-rates";

export interface FxSeriesQuery {
  base: string;
  quote: string;
  from?: string;
  to?: string;
  fmt: "json" | "csv";
}

/** The days a window may span (ten years and a few leap days). */
export const MOST_FX_DAYS = 3_660;
const DEFAULT_DAYS = 30;

export interface FxSeriesAnswer {
  base: string;
  quote: string;
  from: string;
  to: string;
  count: number;
  /** How the rate is made when neither currency is the euro. */
  cross: string | null;
  rounding: string;
  retrieved_at: string;
  data: PairRate[];
  notes: string[];
}

/** The history is still being stored (202): the windows queued, and when to ask again. */
export interface FxBackfilling {
  status: "backfilling";
  message: string;
  windows: FxWindow[];
  retry_after_seconds: number;
}

function windowOf(q: FxSeriesQuery, today: string): { from: string; to: string } {
  const range = givenRange(q.from, q.to) ?? { from: addDays(today, -DEFAULT_DAYS), to: today };
  if (range.from > today)
    throw new BadRequestError(`the window starts after today (${today}): rates exist for past days`);
  if (range.to < FIRST_PUBLICATION)
    throw new BadRequestError(`the ECB's reference rates start on ${FIRST_PUBLICATION}`);
  const from = laterDay(range.from, FIRST_PUBLICATION);
  const to = earlierDay(range.to, today);
  if (Date.parse(to) - Date.parse(from) > MOST_FX_DAYS * 86_400_000)
    throw new BadRequestError(`a window spans at most ${MOST_FX_DAYS} days; ask for longer history in parts`);
  return { from, to };
}

/**
 * GET /fx/{base}/{quote}: the pair's daily rate on every day of the window (default: the last 30
 * days), each naming its publication and source; a day without a publication of its own carries
 * the last one before it and says why. Older years not stored yet are backfilled through the
 * queue: while any of the window's is, the answer is 202 with the windows queued.
 */
export async function getFxSeries(ctx: Context, q: FxSeriesQuery): Promise<FxSeriesAnswer | FxBackfilling> {
  const base = ratedCurrency(q.base, "base");
  const quote = ratedCurrency(q.quote, "quote");
  const today = ctx.clock.today();
  const { from, to } = windowOf(q, today);
  const { book, latest, stored } = await readRateBook(ctx, [base, quote], from, to);
  const pending = stored.queued.filter((w) => w.to >= addDays(from, -CARRY_LOOKBACK_DAYS) && w.from <= to);
  if (pending.length)
    return {
      status: "backfilling",
      message: `the rates of ${pending.map((w) => w.year).join(", ")} are being fetched from the ECB in the background; ask again shortly`,
      windows: pending,
      retry_after_seconds: 30,
    };
  const data: PairRate[] = [];
  const notes: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const r = pairRate(book, { base, quote }, d, { latestPublication: latest });
    if (r) data.push(r);
  }
  if (!data.length) noRates(`${base}/${quote}`, stored);
  if (data[0]?.date !== from) notes.push(`no rate is stored before ${data[0]?.date}`);
  if (stored.failure) notes.push(`the newest rates could not be fetched: ${stored.failure}`);
  return {
    base,
    quote,
    from,
    to,
    count: data.length,
    cross: base !== EUR && quote !== EUR ? `through the euro: EUR/${quote} ÷ EUR/${base}` : null,
    rounding: ROUNDING_RULE,
    retrieved_at: isoWithOffset(ctx.clock.now()),
    data,
    notes,
  };
}

/** The series as CSV: one line a day. */
export function fxSeriesCsv(a: FxSeriesAnswer): string {
  const lines = ["date,rate,published,source,carried_forward"];
  for (const r of a.data) lines.push(`${r.date},${r.rate},${r.published},${r.source},${r.carried_forward}`);
  return `${lines.join("\n")}\n`;
}
