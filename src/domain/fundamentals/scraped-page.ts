import type { SchemaDrift } from "../drift";
import type { ScrapedField } from "./fields";
import type { Unit } from "./validation";

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
