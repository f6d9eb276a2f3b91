import { coverageOf, saveWindow } from "../../db/repositories/fx";
import { type FxWindow, fromRecentFile, missingWindows, yearsOf } from "../../domain/fx/coverage";
import type { EcbRate } from "../../domain/fx/ecb-wire";
import { isPublicationDay, latestPublicationDay } from "../../domain/fx/publication";
import { addDays } from "../../domain/instants";
import { ECB } from "../../domain/provider-names";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import { dropConvertedAnswers } from "./converted-answers";

/** Days looked back before a window's first day: its first days may take an earlier publication. */
export const CARRY_LOOKBACK_DAYS = 10;

/** How long a fetch that did not bring the newest publication (the ECB late) is not repeated. */
const LATE_RETRY_SECONDS = 300;
/** How long a past window that came back without some currency is not asked again. */
const SHORT_RETRY_SECONDS = 86_400;
/** How long a window sent to the backfill is not sent again (its message is being worked on). */
const QUEUED_SECONDS = 600;

/** What making a span of days stored did: the windows left to the queue, and why a fetch failed. */
export interface StoreOutcome {
  /** Windows sent to the backfill (or deferred), not stored yet. */
  queued: FxWindow[];
  /** The provider's failure, when the window fetched now failed. */
  failure?: string;
}

/**
 * One window fetched from the ECB and stored: from its 90-day file when the window is recent and
 * the file holds some of it (the span then starts where the file does, if later), else from its
 * data API. Each currency's span of the year widens to what was read: to the window's end for a
 * past year, to its newest publication for the current one (one not out yet is not marked
 * stored). A currency the answer held nothing of is not marked at all: an answer without it (a
 * provider's hiccup, a currency not published then) is asked again later. Answers the rows
 * written, and whether some currency fell short of the window.
 */
export async function fetchWindow(ctx: Context, w: FxWindow): Promise<{ written: number; short: boolean }> {
  const latest = latestPublicationDay(ctx.clock.now());
  const asked = new Set(w.currencies);
  const recent = fromRecentFile(w, latest) ? await recentOverlapping(ctx, w) : null;
  const answer = recent?.rates ?? (await ctx.providers.ecb.window(w.currencies, w.from, w.to));
  const since = recent?.since ?? w.from;
  const rows = answer.filter((r) => asked.has(r.currency) && r.day >= since && r.day <= w.to);
  const newest = new Map<string, string>();
  for (const r of rows) if (r.day > (newest.get(r.currency) ?? "")) newest.set(r.currency, r.day);
  const spans = [...newest].map(([currency, day]) => ({
    currency,
    year: w.year,
    since,
    through: w.to < latest ? w.to : day,
  }));
  const short = newest.size < asked.size || spans.some((s) => s.through < w.to);
  const stored = rows.map((r) => ({ ...r, source: ECB }));
  const written = await saveWindow(ctx.db, spans, stored, ctx.clock.now());
  // Rates of recent days: a cached converted answer may have carried an earlier day's for them.
  if (written > 0 && w.to >= addDays(latest, -CARRY_LOOKBACK_DAYS)) await dropConvertedAnswers(ctx);
  return { written, short };
}

/**
 * The 90-day file's publications and the first day they stand for: the window's, or the file's
 * oldest when the file starts after the window's first publication day. Null when the file holds
 * none of the window (it lags, or the clock is far ahead of it): the data API answers then.
 */
async function recentOverlapping(ctx: Context, w: FxWindow): Promise<{ rates: EcbRate[]; since: string } | null> {
  const rates = await ctx.providers.ecb.recent();
  const oldest = rates.reduce((d, r) => (d === "" || r.day < d ? r.day : d), "");
  if (oldest === "" || oldest > w.to) return null;
  let first = w.from;
  while (!isPublicationDay(first)) first = addDays(first, 1);
  return { rates, since: oldest > first ? oldest : w.from };
}

/**
 * Makes the currencies' rates of the days `from` to `to` stored (and the days before that a
 * carried rate may come from). The newest missing window is fetched now (one request to the ECB
 * at most); older missing years go to the backfill queue, one message each (or, without a queue,
 * after the answer, one after the other). A window that came back short (the day's publication
 * not out yet, a currency missing) is not asked again for a while. A provider failure is
 * answered, never thrown: what is stored still serves.
 */
export async function storeRates(
  ctx: Context,
  currencies: readonly string[],
  from: string,
  to: string,
): Promise<StoreOutcome> {
  const start = addDays(from, -CARRY_LOOKBACK_DAYS);
  const latest = latestPublicationDay(ctx.clock.now());
  const end = to < latest ? to : latest;
  if (start > end) return { queued: [] };
  const spans = await coverageOf(ctx.db, currencies, yearsOf(start, end));
  const missing = missingWindows(currencies, start, to, latest, spans);
  const now = missing.at(-1);
  if (!now) return { queued: [] };
  const queued = missing.slice(0, -1);
  if (queued.length) await enqueue(ctx, queued);
  const askedKey = cacheKeys.fxAsked(now.currencies, now.from, now.to);
  if (await ctx.cache.get(askedKey)) return { queued };
  try {
    const { short } = await fetchWindow(ctx, now);
    if (short) await ctx.cache.set(askedKey, true, now.to === latest ? LATE_RETRY_SECONDS : SHORT_RETRY_SECONDS);
    return { queued };
  } catch (err) {
    if (err instanceof ProviderError) return { queued, failure: err.message };
    throw err;
  }
}

/**
 * Older windows to the backfill queue, or (no queue bound) fetched after the answer, in order.
 * A window sent in the last ten minutes is not sent again: many requests over the same missing
 * years send each once.
 */
async function enqueue(ctx: Context, missing: readonly FxWindow[]): Promise<void> {
  const claimed = await Promise.all(
    missing.map((w) => ctx.cache.setIfAbsent(cacheKeys.fxQueued(w.currencies, w.year, w.from), true, QUEUED_SECONDS)),
  );
  const windows = missing.filter((_, i) => claimed[i]);
  if (!windows.length) return;
  const queue = ctx.fxQueue;
  if (queue) {
    for (let i = 0; i < windows.length; i += 100)
      await queue.sendBatch(windows.slice(i, i + 100).map((body) => ({ body })));
    return;
  }
  ctx.journal.defer(
    (async () => {
      for (const w of windows) await fetchWindow(ctx, w).catch((err) => console.warn("fx backfill", w, String(err)));
    })(),
  );
}
