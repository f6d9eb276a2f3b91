/** The order in which listings sharing a ticker are chosen (spec /eod rule 3). */
export interface RankedListing {
  isPrimary: boolean;
  currency: string;
  exchange: string | null;
}

/**
 * Primary first, then currency ascending, then exchange ascending (unknown exchange last).
 * @example listings.sort(compareListings)[0] // the preferred listing
 */
export function compareListings(a: RankedListing, b: RankedListing): number {
  if (a.isPrimary !== b.isPrimary) return a.isPrimary ? -1 : 1;
  if (a.currency !== b.currency) return a.currency < b.currency ? -1 : 1;
  const ea = a.exchange ?? "\uffff";
  const eb = b.exchange ?? "\uffff";
  return ea < eb ? -1 : ea > eb ? 1 : 0;
}

export function preferredListing<T extends RankedListing>(listings: readonly T[]): T | undefined {
  return [...listings].sort(compareListings)[0];
}

/** An instrument's listing to show: the preferred active one, else (every line delisted) the preferred of all. */
export function preferredShown<T extends RankedListing & { isActive: boolean }>(listings: readonly T[]): T | undefined {
  const active = listings.filter((l) => l.isActive);
  return preferredListing(active.length > 0 ? active : listings);
}
