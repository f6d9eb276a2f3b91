import type { ScrapedPage, ScrapeTarget } from "../../domain/fundamentals/scraped-page";

/** A web page that publishes trailing P/E, EPS and dividend yield, with its own base URL. */
export interface ScrapedProvider {
  name: string;
  /** Whether the page covers the instrument at all (one page for US shares, one for European ones). */
  covers(target: ScrapeTarget): boolean;
  /** Finds the instrument's page (mapping table, then ISIN, then ticker) and reads it. */
  read(target: ScrapeTarget): Promise<ScrapedPage>;
}

/** A share as a source that states ISINs names it. */
export interface StatedIsin {
  name: string;
  symbol: string;
  isin: string;
}

/** A source whose search states each share's ISIN next to its ticker. */
export interface IsinDirectory {
  readonly name: string;
  /** Shares matching a query (an ISIN or a ticker); null when the source did not answer. */
  suggest(query: string): Promise<StatedIsin[] | null>;
}
