import { cacheKeys, cacheTtls } from "../../cache";
import { screenConditions } from "../../db/repositories/screen-conditions";
import type { Deps } from "../../deps";
import { toDecimalString } from "../../domain/decimal";
import { BadRequestError } from "../../domain/errors";
import { HISTORY_BARS } from "../../domain/indicators/history";
import { parseWhere } from "../../domain/screen-conditions";
import { missingSession } from "../../domain/venues";
import { readThrough } from "../shared/read-through";

export interface ConditionsAnswer {
  where: string;
  matches: {
    ticker: string;
    name: string;
    isin: string;
    currency: string | null;
    as_of: string;
    close: string | null;
    /** Each indicator term's last value, the stored figures when a condition reads one, and the close, as decimal strings. */
    values: Record<string, string | null>;
    /** The day the stored figures were fetched, when a condition reads them. */
    figures_as_of: string | null;
    missing_session: string | null;
  }[];
  total: number;
  screened: number;
  calculated_at: string;
}

/**
 * GET /technical/screen/conditions: the catalogue instruments meeting every condition of `where`
 * (snapshotted indicators, the last close, the stored market capitalisation, P/E and dividend
 * yield, the instrument's sector, exchange, currency and quote type), each with the values it was
 * tested on. Cached like the single-condition screen.
 */
export async function screenByConditions({
  ctx,
  input,
}: {
  ctx: Deps;
  input: { where: string; limit: number };
}): Promise<ConditionsAnswer> {
  const parsed = parseWhere(input.where);
  if (!parsed.ok) throw new BadRequestError(parsed.error);
  const build = async (): Promise<ConditionsAnswer> => {
    const r = await screenConditions(ctx.db.db, {
      conditions: parsed.conditions,
      windowBars: HISTORY_BARS,
      limit: input.limit,
    });
    const now = ctx.clock.now();
    return {
      where: input.where,
      matches: r.rows.map((m) => {
        const close = m.close === null ? null : toDecimalString(Number(m.close));
        return {
          ticker: m.ticker,
          name: m.name,
          isin: m.isin,
          currency: m.currency,
          as_of: m.asOf,
          close,
          values: {
            ...Object.fromEntries(
              Object.entries(m.values).map(([k, v]) => [k, v === null ? null : toDecimalString(Number(v))]),
            ),
            close,
          },
          figures_as_of: m.figuresAsOf,
          missing_session: missingSession(m.exchange, m.asOf, now),
        };
      }),
      total: r.total,
      screened: r.screened,
      calculated_at: now.toISOString(),
    };
  };
  // The text as asked: a value's case matters (sector = Technology).
  const key = cacheKeys.screener(`conditions:${input.limit}:${input.where}`);
  return (await readThrough(ctx, { key, ttlSeconds: cacheTtls(ctx.config).screener, build })).value;
}
