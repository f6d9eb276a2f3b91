import type { SchemaDrift } from "../../domain/drift";
import type { ScrapedField } from "../../domain/fundamentals/fields";
import type { Unit } from "../../domain/fundamentals/validation";

/** An instrument as a scraped provider looks it up. */
export interface ScrapeTarget {
  isin: string;
  ticker: string;
  /** The listing's quote currency: a per-share figure in another currency is not this listing's. */
  currency: string;
  /** The pages publish shares' figures; a fund has none of them. */
  kind: "share" | "fund";
}

export interface ScrapedFigure {
  value: number | null;
  /** How the page writes it: a yield shown with "%" is percent; a bare number whose unit the page does not say, unknown. */
  unit: Unit;
  /** The currency of a per-share amount, when the page says it. */
  currency?: string;
}

/** What a page says about an instrument: its identity and the three quantities (spec /fundamental rule 1c). */
export interface ScrapedPage {
  provider: string;
  url: string;
  /** The ISIN the page is about (rule 4: another ISIN than the one asked is an error). */
  isin: string | null;
  name: string | null;
  /** What "trailing" means on this page (e.g. "trailing twelve months", "fiscal year 2025"). */
  basis: string;
  figures: Partial<Record<ScrapedField, ScrapedFigure>>;
  /** Where the page departed from the layout the parser reads (recorded as schema_drift verdicts). */
  drifts: SchemaDrift[];
}

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
