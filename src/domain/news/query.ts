/** What the full-text news providers are asked for an instrument. */

/** Legal forms and share classes that no headline writes. */
const LEGAL =
  /[,\s]+(inc\.?|incorporated|corp\.?|corporation|co\.?|company|ltd\.?|limited|plc|se|s\.?a\.?|ag|n\.?v\.?|s\.?p\.?a\.?|kgaa|& co\.? kgaa|oyj|asa|ab|group holdings?|holdings?|class [a-c]|\(the\))$/i;

/**
 * The company's name as news writes it: without its legal form or share class.
 * @example companyName("Apple Inc.") // "Apple"
 * @example companyName("LVMH Moët Hennessy Louis Vuitton SE") // "LVMH Moët Hennessy Louis Vuitton"
 * @example companyName("JPMorgan Chase & Co.") // "JPMorgan Chase"
 */
export function companyName(name: string): string {
  let n = name.trim();
  for (let i = 0; i < 3; i++) {
    // "JPMorgan Chase & Co." leaves a dangling "&" once "Co." is gone.
    const next = n
      .replace(LEGAL, "")
      .replace(/[\s,&]+$/, "")
      .trim();
    if (next === n || next.length < 2) break;
    n = next;
  }
  return n;
}

/** The language news of a listing's market is written in, by its exchange (default English). */
const EXCHANGE_LANGUAGE: Record<string, string> = {
  PAR: "fr",
  BRU: "fr",
  XETRA: "de",
  FRA: "de",
  MIL: "it",
  MCE: "es",
  AMS: "nl",
};

export function marketLanguage(exchange: string | null | undefined): string {
  return (exchange && EXCHANGE_LANGUAGE[exchange.toUpperCase()]) || "en";
}
