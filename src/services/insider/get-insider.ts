import { findAssetById } from "../../db/repositories/catalogue";
import { queryInsiderTransactions, recordSecCik } from "../../db/repositories/insider";
import { NoDataError } from "../../domain/errors";
import { coveredByEdgar } from "../../domain/insider/coverage";
import { EDGAR } from "../../domain/provider-names";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import { readThrough } from "../shared/read-through";
import { resolveListing } from "../shared/resolve-listing";
import { fetchNewFilings, type Progress } from "./fetch-new-filings";
import { transactionRow } from "./transaction-row";

export interface InsiderQuery {
  ticker: string;
  limit: number;
  from?: string;
  to?: string;
  /** Transaction codes, e.g. ["P", "S"]. */
  codes?: string[];
}

export interface InsiderAnswer {
  ticker: string;
  isin: string;
  cik: number;
  count: number;
  transactions: ReturnType<typeof transactionRow>[];
  meta: {
    source: typeof EDGAR | "database";
    fetched_at: string;
    cache_hit: boolean;
    filings_checked: number;
    filings_fetched: number;
    note?: string;
  };
}

/**
 * Reads the registrant's recent Form 4 filings, fetches and stores those not stored yet (paced,
 * within the request's deadline), and answers the stored transactions. EDGAR failing, the stored
 * ones are answered with a note; the complete answer is cached 6 hours.
 */
export async function getInsiderTransactions({
  ctx,
  input,
}: {
  ctx: Context;
  input: InsiderQuery;
}): Promise<InsiderAnswer> {
  const listing = await resolveListing({ ctx, input: { ticker: input.ticker } });
  if (!coveredByEdgar(listing))
    throw new NoDataError(
      `No insider transactions for ${listing.ticker}`,
      `SEC EDGAR covers US registrants only; ${listing.ticker} is ${listing.isin} on ${listing.exchange ?? "an unknown exchange"}`,
    );
  const variant = [input.limit, input.from ?? "", input.to ?? "", (input.codes ?? []).join(",")].join(":");
  // One reader per listing at a time, whichever isolate asks: concurrent callers take its answer.
  // An answer read while EDGAR was failing is not cached (the next request tries again).
  let transient = false;
  const { value } = await readThrough(ctx, {
    key: cacheKeys.insider(listing.ticker, variant),
    ttlSeconds: cacheTtls(ctx.config).insider,
    lease: { listingId: listing.id, scope: "insider" },
    build: async () => {
      const read = await readAndAnswer(ctx, input, listing);
      transient = read.transient;
      return read.answer;
    },
    shouldCache: () => !transient,
    asHit: (cached) => ({
      ...cached,
      meta: { ...cached.meta, cache_hit: true, filings_checked: 0, filings_fetched: 0 },
    }),
  });
  return value;
}

async function readAndAnswer(
  ctx: Context,
  input: InsiderQuery,
  listing: { id: number; assetId: number; ticker: string; isin: string },
): Promise<{ answer: InsiderAnswer; transient: boolean }> {
  const asset = await findAssetById(ctx.db, listing.assetId);
  let cik = asset?.secCik ?? null;
  let progress: Progress = { checked: 0, fetched: 0 };
  try {
    if (cik === null) {
      cik = await ctx.providers.edgar.cikOf(listing.ticker);
      if (cik === null)
        throw new NoDataError(
          `No insider transactions for ${listing.ticker}`,
          `SEC EDGAR lists no registrant under ${listing.ticker}`,
        );
      await recordSecCik(ctx.db, listing.assetId, cik);
    }
    progress = await fetchNewFilings(ctx, cik);
  } catch (err) {
    // Without a known registrant there is nothing stored to answer with.
    if (!(err instanceof ProviderError) || cik === null) throw err;
    progress = {
      checked: 0,
      fetched: 0,
      note: `nothing fetched: ${err.message}; the stored transactions are shown`,
      transient: true,
    };
  }
  const rows = await queryInsiderTransactions(ctx.db, cik, {
    limit: input.limit,
    from: input.from,
    to: input.to,
    codes: input.codes,
  });
  const answer: InsiderAnswer = {
    ticker: listing.ticker,
    isin: listing.isin,
    cik,
    count: rows.length,
    transactions: rows.map(transactionRow),
    meta: {
      source: progress.fetched > 0 ? EDGAR : "database",
      fetched_at: ctx.clock.now().toISOString(),
      cache_hit: false,
      filings_checked: progress.checked,
      filings_fetched: progress.fetched,
      ...(progress.note ? { note: progress.note } : {}),
    },
  };
  // An answer cut short by a failure is not kept: the next call goes on where this one stopped.
  return { answer, transient: progress.transient === true };
}
