import type { SchemaDrift } from "../../domain/drift";
import type { ScrapedField } from "../../domain/fundamentals/fields";
import type { ScrapedFigure, ScrapedPage, ScrapeTarget } from "../../domain/fundamentals/scraped-page";
import { SCRAPED_BUSINESSINSIDER } from "../../domain/provider-names";
import { ProviderError } from "../errors";
import { getText } from "../http";
import { observed } from "../isolate";
import { ProviderClient } from "../options";
import { isinInText, parsePageNumber } from "./numbers";
import { fetchPage, PAGE_HEADERS } from "./page";
import { SCRAPED_PAGE_MAP } from "./page-map";
import type { IsinDirectory, ScrapedProvider, StatedIsin } from "./types";

/**
 * markets.businessinsider.com stock pages (US shares, figures in US dollars): the header names the
 * ISIN, the snapshot block holds `<div class="snapshot__data-item">28.85<div
 * class="snapshot__header">P/E Ratio</div></div>` items. Read with the Workers runtime's HTMLRewriter.
 * The page of an instrument is found by the mapping table, then the site's own search by ISIN, then
 * the ticker.
 */

/** Snapshot labels of the three quantities the service takes from pages. */
const LABELS: [RegExp, ScrapedField][] = [
  [/^P\/E Ratio$/i, "pe_ratio"],
  [/^EPS(?: in ([A-Z]{3}))?$/i, "eps_ttm"],
  [/^Dividend Yield$/i, "dividend_yield"],
];

interface Item {
  all: string;
  label: string;
}

/** The page's ISIN, title and snapshot items. Exported for the tests of the parsing alone. */
export async function parseBusinessInsider(html: string, url: string): Promise<ScrapedPage> {
  const items: Item[] = [];
  let title = "";
  let text = "";
  const rewriter = new HTMLRewriter()
    .on(".snapshot__data-item", {
      element: () => {
        items.push({ all: "", label: "" });
      },
      text: (t) => {
        const item = items.at(-1);
        if (item) item.all += t.text;
      },
    })
    .on(".snapshot__header", {
      text: (t) => {
        const item = items.at(-1);
        if (item) item.label += t.text;
      },
    })
    .on("h1", {
      text: (t) => {
        title += t.text;
      },
    })
    .onDocument({
      text: (t) => {
        text += `${t.text}${t.lastInTextNode ? " " : ""}`;
      },
    });
  await rewriter.transform(new Response(html)).text();
  const figures: ScrapedPage["figures"] = {};
  for (const item of items) {
    const label = item.label.replace(/\s+/g, " ").trim();
    // The item's own text is its value; whether or not the header's text came with it.
    const value = (item.all.includes(item.label) ? item.all.replace(item.label, "") : item.all).trim();
    for (const [pattern, field] of LABELS) {
      const m = pattern.exec(label);
      if (!m) continue;
      const n = parsePageNumber(value, "en");
      const figure: ScrapedFigure = {
        value: n.value,
        unit: field === "dividend_yield" ? (n.percent ? "percent" : "unknown") : "ratio",
      };
      if (field === "eps_ttm") figure.currency = m[1]?.toUpperCase() ?? "USD";
      figures[field] = figure;
    }
  }
  const isin = isinInText(text);
  // A consent or error page served with HTTP 200 is a failure, not a page without figures.
  if (!isin && Object.keys(figures).length === 0)
    throw new ProviderError(SCRAPED_BUSINESSINSIDER, "bad_response", "the page carries no instrument and no figures");
  // An instrument's page always shows its snapshot with these labels (a "-" where there is no value):
  // a page that names its instrument and none of them has changed its layout.
  const drifts: SchemaDrift[] =
    isin && Object.keys(figures).length === 0
      ? [
          {
            provider: SCRAPED_BUSINESSINSIDER,
            document: "stock page",
            path: ".snapshot__data-item",
            expected: "snapshot items labelled P/E Ratio, EPS, Dividend Yield",
            seen: items.length ? `${items.length} items with other labels` : "no snapshot items",
          },
        ]
      : [];
  return {
    provider: SCRAPED_BUSINESSINSIDER,
    url,
    isin,
    name: title.trim() || null,
    basis: "trailing twelve months",
    figures,
    drifts,
  };
}

export class BusinessInsiderPages extends ProviderClient implements ScrapedProvider, IsinDirectory {
  readonly name = SCRAPED_BUSINESSINSIDER;

  covers(target: ScrapeTarget): boolean {
    return target.kind === "share" && target.isin.startsWith("US");
  }

  read(target: ScrapeTarget): Promise<ScrapedPage> {
    return observed(this.name, this.watch, async () => {
      const slug = await this.pageOf(target);
      const url = `${this.baseUrl}/stocks/${encodeURIComponent(slug)}-stock`;
      return parseBusinessInsider(await fetchPage(this.name, url, target.ticker, this.limits()), url);
    });
  }

  private limits() {
    return { timeoutMs: this.timeoutMs, deadline: this.deadline };
  }

  /**
   * The site's suggestions for a query (an ISIN or a ticker): each names a share, its ticker and the
   * ISIN the site states for it. Null when the site did not answer (an error, a refusal, another
   * status): "nothing found" and "not asked" must not be confused by a caller that remembers misses.
   */
  async suggest(query: string): Promise<Suggestion[] | null> {
    const url = `${this.baseUrl}/ajax/SearchController_Suggest?max_results=25&query=${encodeURIComponent(query)}`;
    try {
      const { status, text } = await getText(this.name, url, { ...this.limits(), headers: PAGE_HEADERS });
      return status === 200 ? parseSuggestions(text) : null;
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      return null;
    }
  }

  /** The page id: the mapping table, then the site's search by ISIN (a failing search is no reason not to try the ticker), then the ticker. */
  private async pageOf(target: ScrapeTarget): Promise<string> {
    const mapped = SCRAPED_PAGE_MAP[this.name]?.[target.isin] ?? SCRAPED_PAGE_MAP[this.name]?.[target.ticker];
    if (mapped) return mapped;
    const hit = (await this.suggest(target.isin))?.find((s) => s.isin === target.isin);
    return hit?.slug ?? target.ticker.toLowerCase();
  }
}

/** A share the site's search suggests: its name, ticker, the ISIN it states, and its page id. */
export interface Suggestion extends StatedIsin {
  slug: string;
}

/**
 * The shares and funds of a suggestion answer, e.g.
 * `new Array("Apple Inc.", "Stocks", "AAPL|US0378331005|AAPL||AAPL", "75", "", "aapl|AAPL|1|869")`:
 * name, category, keywords (ticker|ISIN|…, the ticker empty for lines the site trades elsewhere),
 * bias, extension, ids (the page id first). Other categories are left out.
 */
export function parseSuggestions(text: string): Suggestion[] {
  const out: Suggestion[] = [];
  // One pass; each field stops at its closing quote, so the time is linear in the answer.
  for (const m of text.matchAll(
    /new Array\("([^"]*)", "(?:Stocks|ETFs|Funds)", "([^"|]*)\|([A-Z0-9]{12})\|[^"]*", "[^"]*", "[^"]*", "([^"|]*)[^"]*"\)/g,
  )) {
    const [, name, symbol, isin, slug] = m;
    if (name && isin && slug) out.push({ name, symbol: symbol ?? "", isin, slug });
  }
  return out;
}
