import { findAssetById } from "../../db/repositories/catalogue";
import {
  type FetchedFiling,
  queryInsiderTransactions,
  recordSecCik,
  type StoredInsiderRow,
  saveFilings,
  storedAccessions,
} from "../../db/repositories/insider";
import { NoDataError } from "../../domain/errors";
import { parseForm4, relationshipOf, TRANSACTION_CODES } from "../../domain/insider/form4";
import { EDGAR } from "../../domain/provider-names";
import { cacheKeys, cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { ProviderError } from "../../providers/errors";
import { readThrough } from "../shared/read-through";
import { resolveListing } from "../shared/resolve-listing";

export interface InsiderQuery {
  ticker: string;
  limit: number;
  from?: string;
  to?: string;
  /** Transaction codes, e.g. ["P", "S"]. */
  codes?: string[];
}

/** The newest Form 4 filings looked at per call (EDGAR's `recent` block holds up to a thousand). */
const MAX_FILINGS = 60;
/** Time kept back from the request's deadline for storing and answering. */
const RESERVE_MS = 2000;

export interface InsiderAnswer {
  ticker: string;
  isin: string;
  cik: number;
  count: number;
  transactions: ReturnType<typeof present>[];
  meta: {
    source: typeof EDGAR | "database";
    fetched_at: string;
    cache_hit: boolean;
    filings_checked: number;
    filings_fetched: number;
    note?: string;
  };
}

const n = (v: string | null) => (v === null ? null : Number(v));

function present(r: StoredInsiderRow) {
  return {
    transaction_date: r.transactionDate,
    filing_date: r.filingDate,
    owner_name: r.ownerName,
    owner_cik: r.ownerCik,
    relationship: relationshipOf({
      cik: r.ownerCik ?? "",
      name: r.ownerName,
      isDirector: r.isDirector,
      isOfficer: r.isOfficer,
      officerTitle: r.officerTitle,
      isTenPercentOwner: r.isTenPercentOwner,
      isOther: r.isOther,
    }),
    is_director: r.isDirector,
    is_officer: r.isOfficer,
    officer_title: r.officerTitle,
    is_ten_percent_owner: r.isTenPercentOwner,
    security_title: r.securityTitle,
    kind: r.kind,
    code: r.code,
    code_meaning: TRANSACTION_CODES[r.code] ?? null,
    shares: n(r.shares),
    price: n(r.price),
    acquired_disposed: r.acquiredDisposed,
    shares_owned_after: n(r.sharesOwnedAfter),
    ownership: r.ownership === "D" ? ("direct" as const) : r.ownership === "I" ? ("indirect" as const) : null,
    nature_of_ownership: r.natureOfOwnership,
    conversion_or_exercise_price: n(r.conversionOrExercisePrice),
    exercise_date: r.exerciseDate,
    expiration_date: r.expirationDate,
    underlying_security_title: r.underlyingSecurityTitle,
    underlying_shares: n(r.underlyingShares),
    footnotes: r.footnoteIds.map((id) => ({ id, text: r.footnotes[id] ?? null })),
    form: r.form,
    accession: r.accession,
    line: r.line,
    filing_url: r.filingUrl,
  };
}

/**
 * Reads the registrant's recent Form 4 filings, fetches and stores those not stored yet (paced,
 * within the request's deadline), and answers the stored transactions. EDGAR failing, the stored
 * ones are answered with a note; the complete answer is cached 6 hours.
 */
/** What reading new filings came to; `transient`: it stopped on a failure a later call may not meet. */
interface Progress {
  checked: number;
  fetched: number;
  note?: string;
  transient?: boolean;
}

/** Failures that say nothing about the filing itself: stop, and leave the rest for a later call. */
const TRANSIENT = new Set(["rate_limited", "unavailable", "timeout", "deadline"]);

async function fetchNewFilings(ctx: Context, cik: number): Promise<Progress> {
  const edgar = ctx.providers.edgar;
  const refs = (await edgar.recentForm4(cik)).slice(0, MAX_FILINGS);
  const stored = await storedAccessions(
    ctx.db,
    cik,
    refs.map((r) => r.accession),
  );
  // Oldest first, so an amendment is read after the filing it amends.
  const fresh = refs.filter((r) => !stored.has(r.accession)).reverse();
  const fetched: FetchedFiling[] = [];
  const skipped: string[] = [];
  let stop: string | undefined;
  for (const [i, ref] of fresh.entries()) {
    if (ctx.deadline.remainingMs() < RESERVE_MS) {
      stop = `${fresh.length - i} filings left for a later call (the request's deadline)`;
      break;
    }
    try {
      const document = parseForm4(await edgar.form4Xml(ref));
      if (document.issuerCik !== null && document.issuerCik !== String(cik)) {
        skipped.push(`${ref.accession} (about issuer ${document.issuerCik})`);
        continue;
      }
      fetched.push({ ...ref, document });
    } catch (err) {
      if (err instanceof ProviderError && TRANSIENT.has(err.failure)) {
        // What was read so far is kept; the rest waits for a later call.
        stop = `${fresh.length - i} filings left for a later call (${err.message})`;
        break;
      }
      if (err instanceof ProviderError && err.failure !== "not_found" && err.failure !== "bad_response") throw err;
      // A filing EDGAR does not have, or that is not a readable ownershipDocument, does not hold up the others.
      skipped.push(ref.accession);
    }
  }
  await saveFilings(ctx.db, cik, fetched, ctx.clock.now());
  const notes = [stop, skipped.length ? `unreadable filings skipped: ${skipped.join(", ")}` : undefined].filter(
    Boolean,
  );
  return {
    checked: refs.length,
    fetched: fetched.length,
    ...(notes.length ? { note: notes.join("; ") } : {}),
    ...(stop ? { transient: true } : {}),
  };
}

/**
 * Whether EDGAR covers the listing's issuer: US ISINs, and shares listed on a US exchange (foreign
 * issuers such as Linde or Seagate file Form 4s as US registrants).
 */
function coveredByEdgar(listing: { isin: string; exchange: string | null; currency: string }): boolean {
  return listing.isin.startsWith("US") || (US_EXCHANGES.has(listing.exchange ?? "") && listing.currency === "USD");
}
const US_EXCHANGES = new Set(["NASDAQ", "NYSE", "NYSEARCA"]);

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
    transactions: rows.map(present),
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
