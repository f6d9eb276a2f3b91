import { type AssetRow, findAssetByIsin, type ListingRow } from "../../../db/repositories/catalogue";
import {
  discoveredSince,
  linesHeldElsewhere,
  readMiss,
  saveMiss,
  spendAddition,
  storeInstrument,
} from "../../../db/repositories/catalogue-additions";
import {
  type AdditionVia,
  choosePrimary,
  type FieldSources,
  MISS_REMEMBERED_MS,
  missKey,
  SEED_SOURCES,
  sourcesToStore,
} from "../../../domain/catalogue-additions";
import {
  BadRequestError,
  NoDataError,
  RateLimitedError,
  ServiceError,
  UnprocessableError,
} from "../../../domain/errors";
import { profileOf } from "../../../domain/fundamentals/delayed-figures";
import { isoDay } from "../../../domain/instants";
import { isinProblem, normaliseIsin } from "../../../domain/isin";
import { preferredShown } from "../../../domain/listing-choice";
import { VENUES } from "../../../domain/venues";
import type { Context } from "../../../platform/context";
import { ProviderError } from "../../../providers/errors";
import { type Offer, offeredLines, type RefusedLine, type VerifiedLine, verifyLines } from "./verify-lines";

export interface AssetWithListings {
  asset: AssetRow;
  preferred: ListingRow | undefined;
  listings: ListingRow[];
}

/** What became of one instrument asked for. */
export interface Addition {
  /** added: new to the catalogue; extended: known, with new listings; reactivated: back after a removal; known: nothing changed. */
  status: "added" | "extended" | "reactivated" | "known";
  found: AssetWithListings;
  /** Listings this call added (tickers). */
  added: string[];
  /** Lines left out, with why (another venue, another currency, another instrument's listing). */
  refused: RefusedLine[];
  sources: FieldSources;
}

/** Who asks, and how: the per-key budget and the instrument's record of how it came. */
export interface AdditionContext {
  via: AdditionVia;
  /** The bulk import whose line this is. */
  importId?: number;
}

/** The ISIN as asked, or a 400 naming what is wrong with it (a wrong check digit names no instrument anywhere). */
export function checkedIsin(raw: string): string {
  const problem = isinProblem(raw);
  const isin = normaliseIsin(raw);
  if (problem || !isin) throw new BadRequestError(problem ?? `Invalid ISIN '${raw}'`);
  return isin;
}

/** The budget of discoveries of all keys together: what read-only keys may add, in all. */
const DISCOVERIES = "*discovery";

/**
 * One attempt against the budgets: the caller's key per minute (imports and crons have none: they
 * are paced); a discovery also against every key's discoveries together, per minute and per day,
 * so that however many keys read, the instruments reads add (and the refresh then carries) stay bounded.
 */
export async function spend(ctx: Context, via: AdditionVia): Promise<void> {
  if (!ctx.caller) return;
  const now = ctx.clock.now();
  const wait = 60 - now.getUTCSeconds();
  const c = ctx.config;
  if ((await spendAddition(ctx.db, ctx.caller.fingerprint, now)) > c.CATALOGUE_ADDITIONS_PER_MINUTE)
    throw new RateLimitedError(
      `This key has asked for ${c.CATALOGUE_ADDITIONS_PER_MINUTE} catalogue additions this minute, its limit; retry after ${wait} seconds`,
      wait,
    );
  if (via !== "discovery") return;
  const [minute, today] = await Promise.all([
    spendAddition(ctx.db, DISCOVERIES, now),
    discoveredSince(ctx.db, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))),
  ]);
  if (today >= c.CATALOGUE_DISCOVERIES_PER_DAY) {
    const untilMidnight = Math.ceil(
      (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000,
    );
    throw new RateLimitedError(
      `Reads have added ${c.CATALOGUE_DISCOVERIES_PER_DAY} instruments today, the service's limit; POST /assets with a full-access key adds more`,
      untilMidnight,
    );
  }
  if (minute > c.CATALOGUE_DISCOVERIES_PER_MINUTE)
    throw new RateLimitedError(
      `Reads have asked for ${c.CATALOGUE_DISCOVERIES_PER_MINUTE} catalogue additions this minute, the service's limit; retry after ${wait} seconds`,
      wait,
    );
}

/** A remembered miss, thrown as it was answered the first time. */
export async function rememberedMiss(ctx: Context, key: string): Promise<void> {
  const since = new Date(ctx.clock.now().getTime() - MISS_REMEMBERED_MS);
  const miss = await readMiss(ctx.db, key, since);
  // Answered as the first time, word for word: the same question gets the same answer all day.
  if (miss) throw missError(key, miss.status, miss.reason);
}

/** How a miss is answered: 422 for a line on venues the catalogue lacks or without a stated ISIN, else 404. */
const missError = (key: string, status: number, reason: string) => {
  if (status === 422) return new UnprocessableError(reason);
  const asked = key.slice(key.indexOf(":") + 1);
  return new NoDataError(
    key.startsWith("isin:") ? `Instrument with ISIN '${asked}' not found` : `No data found for ${asked}`,
    reason,
  );
};

/** Sector, industry and country from the delayed provider's profile; a failure costs those fields only. */
async function profile(ctx: Context, line: VerifiedLine) {
  if (line.quoteType !== "EQUITY") return null;
  try {
    const read = await ctx.providers.delayedFundamentals.summary(line.delayedSymbol, ["assetProfile", "price"]);
    const p = profileOf(read.value);
    return {
      sector: typeof p.sector === "string" ? p.sector : null,
      industry: typeof p.industry === "string" ? p.industry : null,
      country: typeof p.country === "string" ? p.country : null,
    };
  } catch (err) {
    if (err instanceof ProviderError) return null;
    throw err;
  }
}

/**
 * Adds the instrument of an ISIN (spec Instrument; issue "the whole market"): the lines providers
 * offer, each verified by its chart, stored with the primary-listing rule and the record of where
 * every field came from. A known instrument is asked about again only on an explicit request (it
 * may have gained a venue); a discovery answers it as it is. `extra`: a line the caller already
 * found (the symbol path), verified with the others.
 */
export async function addByIsin(
  ctx: Context,
  how: AdditionContext,
  rawIsin: string,
  extra?: { offer: Offer; isinSource: string },
): Promise<Addition> {
  const isin = checkedIsin(rawIsin);
  const existing = await findAssetByIsin(ctx.db, isin);
  if (existing?.asset.removedAt && how.via !== "request")
    throw new NoDataError(
      `Instrument with ISIN '${isin}' not found`,
      `removed from the catalogue on ${isoDay(existing.asset.removedAt)}; a POST /assets with a full-access key brings it back`,
    );
  if (existing && how.via === "discovery") return knownAnswer(existing);
  // The symbol path brings a line of its own, verified whatever the ISIN search once missed.
  if (!existing && !extra) await rememberedMiss(ctx, missKey({ isin }));
  // The symbol path has spent its attempt already.
  if (!extra) await spend(ctx, how.via);

  const { offers, statedName } = await offeredLines(ctx, isin);
  const all = extra ? [extra.offer, ...offers] : offers;
  const checked = await verifyLines(ctx, all, ctx.clock.today());
  // A line whose chart failed may be the home one: storing the others would fix a wrong primary
  // for good. Nothing is stored; asked again, the providers may answer.
  const failed = checked.refused.filter((r) => r.transient);
  if (failed.length > 0)
    throw new ServiceError(
      "UPSTREAM_UNAVAILABLE",
      `${isin} was not added: ${failed.map((r) => r.reason).join("; ")}; ask again shortly`,
    );
  // A line another instrument holds stays with it (the store re-checks this under its lock-free upsert).
  const held = await linesHeldElsewhere(ctx.db, isin, checked.verified);
  const heldKey = (l: { ticker: string; exchange: string; currency: string }) =>
    `${l.ticker}|${l.exchange}|${l.currency}`;
  const heldKeys = new Set(held.map(heldKey));
  const verified = checked.verified.filter((v) => !heldKeys.has(heldKey(v)));
  const refused: RefusedLine[] = [...checked.refused, ...held.map(conflictOf)];
  if (verified.length === 0) {
    if (existing?.asset.removedAt)
      throw new UnprocessableError(
        `${isin} cannot be brought back: no line of it verifies now (${refused.map((r) => r.reason).join("; ") || "the providers list none"})`,
      );
    if (existing) return { ...knownAnswer(existing), refused };
    const unsupported = refused.length > 0;
    const reason = unsupported
      ? `${isin}: no line the catalogue can list (${refused.map((r) => r.reason).join("; ")})`
      : `no provider knows ${isin}${statedName ? ` (${statedName})` : ""}`;
    const status = unsupported ? 422 : 404;
    // A conflict is an operator's to settle, and may be settled within the day: not remembered.
    if (held.length === 0) await saveMiss(ctx.db, missKey({ isin }), status, reason, ctx.clock.now());
    throw missError(missKey({ isin }), status, reason);
  }

  const first = verified[0] as VerifiedLine;
  const quoteType = existing?.asset.quoteType ?? first.quoteType ?? "EQUITY";
  const named = verified.find((v) => v.name) ?? first;
  const prof = existing ? null : await profile(ctx, first);
  const homeCurrency = Object.values(VENUES).find((v) => v.countries.includes(isin.slice(0, 2)))?.currency ?? null;
  const primary = existing?.listings.some((l) => l.isPrimary)
    ? undefined
    : choosePrimary(verified, isin, quoteType, homeCurrency);
  const listingSources = Object.fromEntries(verified.map((v) => [`listing ${v.ticker}`, v.source]));
  const sources = sourcesToStore(
    existing ? { sources: existing.asset.fieldSources } : null,
    {
      isin: extra?.isinSource ?? "asked",
      name: `delayed provider search (${named.delayedSymbol})`,
      quote_type: `delayed provider search (${first.delayedSymbol})`,
      ...(prof?.sector ? { sector: `delayed provider profile (${first.delayedSymbol})` } : {}),
      ...(prof?.industry ? { industry: `delayed provider profile (${first.delayedSymbol})` } : {}),
      ...(primary ? { primary: "home venue of the ISIN's country, else its currency, else most traded by value" } : {}),
    },
    listingSources,
  );
  const stored = await storeInstrument(ctx.db, ctx.clock.now(), {
    isin,
    name: existing?.asset.name ?? named.name ?? isin,
    quoteType,
    sector: prof?.sector ?? null,
    industry: prof?.industry ?? null,
    country: prof?.country ?? null,
    via: how.via,
    keyKind: ctx.caller?.kind ?? null,
    importId: how.importId ?? null,
    sources,
    reactivate: how.via === "request",
    listings: verified,
    primary: primary ?? null,
  });
  const conflicts = stored.conflicts.filter((c) => !heldKeys.has(heldKey(c))).map(conflictOf);
  if (!stored.stored)
    throw new UnprocessableError(
      `${isin} was not added: ${[...refused, ...conflicts].map((r) => r.reason).join("; ")}`,
    );
  const after = await findAssetByIsin(ctx.db, isin);
  if (!after) throw new Error(`${isin} was stored but cannot be read back`);
  return {
    status: stored.created
      ? "added"
      : stored.reactivated
        ? "reactivated"
        : stored.added.length > 0
          ? "extended"
          : "known",
    found: { asset: after.asset, preferred: preferredShown(after.listings), listings: after.listings },
    added: stored.added,
    refused: [...refused, ...conflicts],
    sources: after.asset.fieldSources ?? sources,
  };
}

const conflictOf = (c: { ticker: string; exchange: string; currency: string; ownerIsin: string }): RefusedLine => ({
  symbol: c.ticker,
  reason: `${c.ticker} on ${c.exchange} in ${c.currency} is a listing of ${c.ownerIsin}; a listing is never moved to another instrument`,
  transient: false,
});

/** An instrument the catalogue holds, answered as it is: nothing added, nothing asked of a provider. */
export function knownAnswer(found: {
  asset: AssetWithListings["asset"];
  listings: AssetWithListings["listings"];
}): Addition {
  return {
    status: "known",
    found: { asset: found.asset, preferred: preferredShown(found.listings), listings: found.listings },
    added: [],
    refused: [],
    sources: found.asset.fieldSources ?? SEED_SOURCES,
  };
}
