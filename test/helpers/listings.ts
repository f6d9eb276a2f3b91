import { env } from "cloudflare:workers";
import { eq, inArray, sql } from "drizzle-orm";
import { onTestFinished } from "vitest";
import {
  adjustmentChecks,
  assets,
  dividends,
  earningsCalendar,
  earningsHistory,
  earningsTrends,
  etfDetails,
  financialStatements,
  fundamentalSnapshots,
  fxCoverage,
  fxRates,
  indicatorSnapshots,
  insiderFilings,
  intradayBars,
  intradayCoverage,
  listings,
  macroRatesCache,
  newsArticleAssets,
  newsArticles,
  priceFindings,
  pricesDaily,
  pricesIntraday,
  screenFigures,
  screenRows,
  splits,
  validationResults,
} from "../../src/db/schema";
import { buildDeps } from "../../src/deps";
import { cacheKeys } from "../../src/platform/cache";

/**
 * Puts the listings of `tickers` back to their seeded state: no stored prices or fundamentals, no
 * validation verdicts, no verified symbol, no cached answers. Test databases and Redis outlive a run (CI's are the machine's), so a test that
 * needs "nothing stored yet" must make it so.
 */
export async function resetTickers(...tickers: string[]): Promise<void> {
  const deps = buildDeps(env);
  const { db, cache } = deps;
  try {
    const rows = await db
      .select({ id: listings.id, assetId: listings.assetId, isin: assets.isin })
      .from(listings)
      .innerJoin(assets, eq(assets.id, listings.assetId))
      .where(inArray(listings.ticker, tickers));
    const ids = rows.map((r) => r.id);
    const assetIds = [...new Set(rows.map((r) => r.assetId))];
    if (assetIds.length) {
      for (const table of [
        fundamentalSnapshots,
        financialStatements,
        earningsHistory,
        earningsCalendar,
        earningsTrends,
        etfDetails,
        screenFigures,
      ])
        await db.delete(table).where(inArray(table.assetId, assetIds));
      // News linked to the instruments (an article linked to another one too goes as well: it is refetched).
      await db
        .delete(newsArticles)
        .where(
          inArray(
            newsArticles.id,
            db
              .select({ id: newsArticleAssets.articleId })
              .from(newsArticleAssets)
              .where(inArray(newsArticleAssets.assetId, assetIds)),
          ),
        );
      // Insider filings are the issuer's (by CIK); its transactions go with them.
      const ciks = (await db.select({ cik: assets.secCik }).from(assets).where(inArray(assets.id, assetIds)))
        .map((r) => r.cik)
        .filter((c): c is number => c !== null);
      if (ciks.length) await db.delete(insiderFilings).where(inArray(insiderFilings.issuerCik, ciks));
      await db.update(assets).set({ secCik: null, earningsCheckedAt: null }).where(inArray(assets.id, assetIds));
    }
    await db.delete(validationResults).where(inArray(validationResults.ticker, tickers));
    if (ids.length) {
      await db.delete(pricesDaily).where(inArray(pricesDaily.listingId, ids));
      for (const table of [
        dividends,
        splits,
        adjustmentChecks,
        priceFindings,
        pricesIntraday,
        intradayBars,
        intradayCoverage,
      ])
        await db.delete(table).where(inArray(table.listingId, ids));
      await db.delete(indicatorSnapshots).where(inArray(indicatorSnapshots.listingId, ids));
      await db.delete(screenRows).where(inArray(screenRows.listingId, ids));
      await db
        .update(listings)
        .set({ delayedSymbol: null, delayedSymbolCheckedAt: null })
        .where(inArray(listings.id, ids));
      for (const id of ids) {
        await cache.delete(cacheKeys.replacementTried(id));
        await cache.deletePattern(cacheKeys.emptyRange(id, "*", "*"));
        await cache.delete(cacheKeys.fundamentalsDeep(String(id)));
        await cache.deletePattern(cacheKeys.fundamentals(`${id}:*`));
      }
      for (const { isin } of rows) {
        await cache.delete(cacheKeys.etf(isin));
      }
    }
  } finally {
    await deps.close();
  }
  for (const t of tickers) {
    await cache.deletePattern(cacheKeys.dcf(t, "*"));
    await cache.deletePattern(cacheKeys.news(t, "*"));
    await cache.deletePattern(cacheKeys.eodOfTicker(t));
    await cache.deletePattern(cacheKeys.technicalOfTicker(t));
    await cache.deletePattern(cacheKeys.insiderOfTicker(t));
  }
}

/** Forgets the risk-free rate: nothing stored, nothing cached. */
export async function resetMacroRates(): Promise<void> {
  const deps = buildDeps(env);
  const { db, cache } = deps;
  try {
    await db.delete(macroRatesCache);
    await cache.deletePattern(cacheKeys.macro("*"));
  } finally {
    await deps.close();
  }
}

/** No euro rate stored, none marked stored, and no FX marker in the cache: the ECB is asked afresh. */
export async function resetFxRates(): Promise<void> {
  const deps = buildDeps(env);
  const { db, cache } = deps;
  try {
    await db.delete(fxRates);
    await db.delete(fxCoverage);
    await cache.deletePattern(cacheKeys.fxAll());
  } finally {
    await deps.close();
  }
}

/**
 * Sets a fault on a simulator (see tools/sandbox): `mode` for `symbol` ("*" for all), `times` calls.
 * Cleared when the test finishes, passed or failed, so no fault outlives the test that set it.
 */
export async function fault(simUrl: string, symbol: string, mode: string, times = 1): Promise<void> {
  const res = await fetch(`${simUrl}/__sandbox/faults`, {
    method: "POST",
    body: JSON.stringify({ symbol, mode, times }),
  });
  if (!res.ok) throw new Error(`simulator refused the fault: HTTP ${res.status}`);
  onTestFinished(() => clearFault(simUrl, symbol));
}

/** Sets a price glitch of the delayed-provider simulator on `symbol` at the session `date`, for every request until the test ends. */
export async function glitchAt(simUrl: string, symbol: string, mode: string, date: string): Promise<void> {
  const res = await fetch(`${simUrl}/__sandbox/faults`, {
    method: "POST",
    body: JSON.stringify({ symbol, mode, date }),
  });
  if (!res.ok) throw new Error(`simulator refused the glitch: HTTP ${res.status}`);
  onTestFinished(() => clearFault(simUrl, symbol));
}

/** Clears one symbol's fault (the others, maybe set by tests running beside this one, stay). */
export async function clearFault(simUrl: string, symbol: string): Promise<void> {
  await fetch(`${simUrl}/__sandbox/faults?symbol=${encodeURIComponent(symbol)}`, { method: "DELETE" });
}

/** Removes cached answers matching a glob, so a test starts from "not cached" whatever an earlier run left. */
export async function forgetCached(pattern: string): Promise<void> {
  await buildDeps(env).cache.deletePattern(pattern);
}

/** Requests the delayed-provider simulator has served, by `<endpoint> <symbol>` (e.g. `chart ENEL.MI`). */
export async function simRequests(simUrl: string): Promise<Record<string, number>> {
  return (await (await fetch(`${simUrl}/__sandbox/requests`)).json()) as Record<string, number>;
}

/** Daily bars stored for a ticker's listings, and how many distinct dates they cover. */
export async function storedBars(ticker: string): Promise<{ rows: number; dates: number }> {
  const deps = buildDeps(env);
  const { db } = deps;
  try {
    const [row] = await db
      .select({ rows: sql<number>`count(*)::int`, dates: sql<number>`count(distinct ${pricesDaily.date})::int` })
      .from(pricesDaily)
      .innerJoin(listings, eq(listings.id, pricesDaily.listingId))
      .where(eq(listings.ticker, ticker));
    return row ?? { rows: 0, dates: 0 };
  } finally {
    await deps.close();
  }
}
