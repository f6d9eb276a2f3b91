import { coverageOf, saveWindow } from "../../db/repositories/fx";
import { type FxWindow, fromRecentFile, missingWindows, yearsOf } from "../../domain/fx/coverage";
import type { EcbRate } from "../../domain/fx/ecb-wire";
import { isPublicationDay, latestPublicationDay } from "../../domain/fx/publication";
import { addDays } from "../../domain/instants";
import { ECB } from "../../domain/provider-names";
import { cacheKeys } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import { standInNote, storeFallbackRates } from "./fallback";

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

/** The 90-day file, read at most once for the windows of one piece of work. */
type RecentFile = () => Promise<EcbRate[]>;

const onceRecent = (ctx: Context): RecentFile => {
  let read: Promise<EcbRate[]> | undefined;
  return () => {
    read ??= ctx.providers.ecb.recent();
    return read;
  };
};

/**
 * One window fetched from the ECB and stored. A recent window is read from the 90-day file when
 * the file reaches back to the window's first publication day, else from the data API (and, if
 * that fails, from the part of the file it holds, for currencies with nothing stored of the year,
 * so that no gap is ever bridged); an older window from the data API. Each currency's span of the
 * year widens to what was read: a past window is the year's answer whole, so every currency asked
 * is marked through its end, those the ECB published nothing of too (a currency not yet or no
 * longer published, never asked again); a current window through its newest publication, and a
 * currency without one there is not marked (the day's publication may not be out yet). Answers
 * the rows written, and whether some currency fell short of the window.
 */
export async function fetchWindow(
  ctx: Context,
  w: FxWindow,
  recent: RecentFile = onceRecent(ctx),
): Promise<{ written: number; short: boolean }> {
  const latest = latestPublicationDay(ctx.clock.now());
  const read = fromRecentFile(w, latest) ? await fromFile(ctx, w, recent) : null;
  const answer = read?.rates ?? (await ctx.providers.ecb.window(w.currencies, w.from, w.to));
  const since = read?.since ?? w.from;
  const asked = new Set(w.currencies);
  const rows = answer.filter((r) => asked.has(r.currency) && r.day >= since && r.day <= w.to);
  const newest = new Map<string, string>();
  for (const r of rows) if (r.day > (newest.get(r.currency) ?? "")) newest.set(r.currency, r.day);
  const past = w.to < latest;
  const spans = w.currencies
    .filter((c) => past || newest.has(c))
    .map((currency) => ({ currency, year: w.year, since, through: past ? w.to : (newest.get(currency) as string) }));
  const short = newest.size < asked.size || spans.some((s) => s.through < w.to);
  const stored = rows.map((r) => ({ ...r, source: ECB }));
  const written = await saveWindow(ctx.db, spans, stored, ctx.clock.now());
  return { written, short };
}

/**
 * A recent window from the 90-day file: the whole window when the file reaches back to its first
 * publication day; else null (the data API answers), unless the data API fails too and nothing of
 * the year is stored for the window's currencies: then the part the file holds, from its oldest day.
 */
async function fromFile(
  ctx: Context,
  w: FxWindow,
  recent: RecentFile,
): Promise<{ rates: EcbRate[]; since: string } | null> {
  const rates = await recent();
  const oldest = rates.reduce((d, r) => (d === "" || r.day < d ? r.day : d), "");
  let first = w.from;
  while (!isPublicationDay(first)) first = addDays(first, 1);
  if (oldest !== "" && oldest <= first) return { rates, since: w.from };
  if (oldest === "" || oldest > w.to) return null;
  try {
    return { rates: await ctx.providers.ecb.window(w.currencies, w.from, w.to), since: w.from };
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    const stored = await coverageOf(ctx.db, w.currencies, [w.year]);
    if (stored.size) throw err;
    return { rates, since: oldest };
  }
}

/**
 * Makes the currencies' rates of the days `from` to `to` stored (and the days before that a
 * carried rate may come from). The missing windows the 90-day file can serve are fetched now (one
 * read of the file, whichever years they are of); otherwise the newest missing window (one request
 * to the data API). Older missing years go to the backfill queue, one message each (or, without a
 * queue, after the answer, one after the other). A window that came back short (the day's
 * publication not out yet, a currency missing) is not asked again for a while. A provider failure
 * is answered, never thrown: what is stored still serves.
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
  const recentOnes = missing.filter((w) => fromRecentFile(w, latest));
  const older = missing.filter((w) => !fromRecentFile(w, latest));
  const now = recentOnes.length ? recentOnes : older.slice(-1);
  const queued = recentOnes.length ? older : older.slice(0, -1);
  if (queued.length) await enqueue(ctx, queued);
  const recent = onceRecent(ctx);
  const failures: string[] = [];
  for (const w of now) {
    const askedKey = cacheKeys.fxAsked(w.currencies, w.from, w.to);
    if (await ctx.cache.get(askedKey)) continue;
    try {
      const { short } = await fetchWindow(ctx, w, recent);
      if (short) await ctx.cache.set(askedKey, true, w.to === latest ? LATE_RETRY_SECONDS : SHORT_RETRY_SECONDS);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      // The ECB failed: the fallback providers' rates of recent days stand in until it answers
      // again (asked again in five minutes, not by every request meanwhile).
      const stood = fromRecentFile(w, latest) ? standInNote(await storeFallbackRates(ctx, w)) : null;
      if (stood) await ctx.cache.set(askedKey, true, LATE_RETRY_SECONDS);
      failures.push(stood ? `${err.message} (${stood})` : err.message);
    }
  }
  return failures.length ? { queued, failure: failures.join("; ") } : { queued };
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
