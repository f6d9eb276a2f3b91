import type { Db } from "../../src/db/client";
import { upsertDailyBars } from "../../src/db/repositories/prices-write";
import { assets, listings } from "../../src/db/schema";
import type { Bar } from "../../src/domain/bars";
import { isinCheckDigit } from "../../src/domain/isin";

export type TestAsset = typeof assets.$inferSelect;
export type TestListing = typeof listings.$inferSelect & { asset: TestAsset };

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/**
 * `length` random letters and digits. Identifiers are random, not counted: test files run at once in
 * separate isolates against a Postgres and a Redis that outlive the run, so no counter is shared.
 */
function randomTag(length: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (n) => ALPHABET[n % ALPHABET.length]).join("");
}

/** A ticker no other test has: "T" and random characters, with `suffix` (".PA"), 10 characters as tickers may be. */
export function uniqueTicker(suffix = ""): string {
  return `T${randomTag(9 - suffix.length)}${suffix}`;
}

/** An ISIN no other test has, with the check digit the service's own rule calls for. */
export function uniqueIsin(): string {
  const first11 = `XS${randomTag(9)}`;
  return `${first11}${isinCheckDigit(first11)}`;
}

/** An instrument of its own (a unique ISIN), so a test never races another over shared rows; delete it to clean up. */
export async function createAsset(db: Db, overrides: Partial<typeof assets.$inferInsert> = {}): Promise<TestAsset> {
  const isin = overrides.isin ?? uniqueIsin();
  const [asset] = await db
    .insert(assets)
    .values({ isin, name: `Test ${isin}`, quoteType: "EQUITY", ...overrides })
    .returning();
  if (!asset) throw new Error(`no asset inserted for ${isin}`);
  return asset;
}

/**
 * A primary listing of its own (a unique ticker) on `asset`, or on a new asset when none is given.
 * Deleting its asset removes it and its prices (the foreign keys cascade).
 */
export async function createListing(
  db: Db,
  overrides: Omit<Partial<typeof listings.$inferInsert>, "assetId"> & { asset?: TestAsset } = {},
): Promise<TestListing> {
  const { asset: given, ...columns } = overrides;
  const asset = given ?? (await createAsset(db));
  const [listing] = await db
    .insert(listings)
    .values({
      assetId: asset.id,
      ticker: uniqueTicker(),
      exchange: "TEST",
      currency: "EUR",
      name: asset.name,
      source: "test",
      isPrimary: true,
      ...columns,
    })
    .returning();
  if (!listing) throw new Error(`no listing inserted for ${asset.isin}`);
  return { ...listing, asset };
}

export interface BarsOptions {
  /** First session (YYYY-MM-DD); a weekend date starts on the Monday after. Default 2016-01-04, a Monday. */
  start?: string;
  /** Close of the i-th bar, to the cent; open, high, low and adjusted close follow from it. Default 100 + i/100. */
  price?: (i: number) => number;
  /** Volume of the i-th bar. Default 1,000,000 + i. */
  volume?: (i: number) => number;
}

const round = (x: number, decimals: number) => Number(x.toFixed(decimals));

/**
 * `count` daily bars on consecutive weekdays (as a provider serves sessions), the same for the same
 * arguments, so a test can compare what it stored with what it reads back.
 */
export function makeBars(count: number, opts: BarsOptions = {}): Bar[] {
  const price = opts.price ?? ((i) => 100 + i / 100);
  const volume = opts.volume ?? ((i) => 1_000_000 + i);
  const day = new Date(`${opts.start ?? "2016-01-04"}T00:00:00Z`);
  const out: Bar[] = [];
  while (out.length < count) {
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) {
      const i = out.length;
      const close = round(price(i), 2);
      out.push({
        date: day.toISOString().slice(0, 10),
        open: round(close - 0.5, 2),
        high: round(close + 1.25, 2),
        low: round(close - 1, 2),
        close,
        adjClose: round(close * 0.97, 6),
        volume: volume(i),
      });
    }
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return out;
}

/** Stores bars of a listing through the production repository (the path ingestion writes by); rows written. */
export function storeBars(db: Db, listingId: number, bars: readonly Bar[], source = "test"): Promise<number> {
  return upsertDailyBars(db, listingId, bars, source);
}
