/**
 * Whether SEC EDGAR covers a listing's issuer: US ISINs, and shares listed on a US exchange in
 * dollars (foreign issuers such as Linde or Seagate file Form 4s as US registrants).
 */
export function coveredByEdgar(listing: { isin: string; exchange: string | null; currency: string }): boolean {
  return listing.isin.startsWith("US") || (US_EXCHANGES.has(listing.exchange ?? "") && listing.currency === "USD");
}
const US_EXCHANGES = new Set(["NASDAQ", "NYSE", "NYSEARCA"]);
