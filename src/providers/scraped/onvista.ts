import { type SchemaDrift, uniqueDrifts } from "../../domain/drift";
import type { ScrapedPage, ScrapeTarget } from "../../domain/fundamentals/scraped-page";
import { finiteOrNull } from "../../domain/numbers";
import { SCRAPED_ONVISTA } from "../../domain/provider-names";
import { readWire, type WireNode } from "../../domain/wire-schema";
import { ProviderError } from "../errors";
import { observed } from "../isolate";
import { ProviderClient } from "../options";
import { fetchPage } from "./page";
import { SCRAPED_PAGE_MAP } from "./page-map";
import type { ScrapedProvider } from "./types";

/**
 * onvista.de "Kennzahlen" pages (European shares): the figures travel in the page's
 * `<script id="__NEXT_DATA__">` JSON (props.pageProps.data): `snapshot.instrument.isin`, per fiscal
 * year `figures.stocksCnFundamentalList.list[] {label, cnPer, cnDivYield}` and
 * `figures.stocksCnFinancialList.list[] {label, cnEpsAdj}`, estimates labelled with a trailing "e"
 * ("2026e"). "Trailing" is the newest reported year. The yield's unit is not documented (its values
 * read as percent), so it goes to the validation layer as unknown. Read with HTMLRewriter.
 */

type Year = { label?: string; cnPer?: number; cnDivYield?: number; cnEpsAdj?: number };

/** What the parser reads of the page's data, field by field: a year without its label cannot be placed. */
const YEARS = (figures: Record<string, WireNode>): WireNode => ({
  fields: { list: { list: { fields: { label: { required: "string" }, ...figures } } } },
});
export const ONVISTA_DATA: WireNode = {
  fields: {
    snapshot: { fields: { instrument: { fields: { isin: "string", name: "string" } } } },
    figures: {
      fields: {
        stocksCnFundamentalList: YEARS({ cnPer: "number", cnDivYield: "number" }),
        stocksCnFinancialList: YEARS({ cnEpsAdj: "number" }),
      },
    },
  },
};

const reported = (rows: Year[]) =>
  rows
    .filter((r) => typeof r.label === "string" && !/e$/i.test(r.label))
    .sort((a, b) => String(a.label).localeCompare(String(b.label)))
    .at(-1);

/** The page's instrument and the newest reported year's figures. Exported for the tests of the parsing alone. */
export async function parseOnvista(html: string, url: string): Promise<ScrapedPage> {
  let json = "";
  await new HTMLRewriter()
    .on("script#__NEXT_DATA__", {
      text: (t) => {
        json += t.text;
      },
    })
    .transform(new Response(html))
    .text();
  let raw: unknown;
  try {
    raw = (JSON.parse(json) as { props?: { pageProps?: { data?: unknown } } }).props?.pageProps?.data ?? {};
  } catch {
    throw new ProviderError(SCRAPED_ONVISTA, "bad_response", "the page carries no readable figures (__NEXT_DATA__)");
  }
  const drifts: SchemaDrift[] = [];
  const data = (readWire(
    raw,
    ONVISTA_DATA,
    { provider: SCRAPED_ONVISTA, document: "__NEXT_DATA__", path: "" },
    drifts,
  ) ?? {}) as {
    snapshot?: { instrument?: { isin?: string; name?: string } };
    figures?: { stocksCnFundamentalList?: { list?: Year[] }; stocksCnFinancialList?: { list?: Year[] } };
  };
  const fundamental = reported(data.figures?.stocksCnFundamentalList?.list ?? []);
  const financial = reported(data.figures?.stocksCnFinancialList?.list ?? []);
  const instrument = data.snapshot?.instrument;
  if (!instrument && !fundamental)
    throw new ProviderError(SCRAPED_ONVISTA, "bad_response", "the page carries no instrument and no figures");
  return {
    provider: SCRAPED_ONVISTA,
    url,
    isin: instrument?.isin ?? null,
    name: instrument?.name ?? null,
    basis: fundamental ? `fiscal year ${String(fundamental.label)}` : "none",
    figures: {
      pe_ratio: { value: finiteOrNull(fundamental?.cnPer), unit: "ratio" },
      eps_ttm: { value: finiteOrNull(financial?.cnEpsAdj), unit: "ratio", currency: "EUR" },
      dividend_yield: { value: finiteOrNull(fundamental?.cnDivYield), unit: "unknown" },
    },
    drifts: uniqueDrifts(drifts),
  };
}

export class OnvistaPages extends ProviderClient implements ScrapedProvider {
  readonly name = SCRAPED_ONVISTA;

  covers(target: ScrapeTarget): boolean {
    return target.kind === "share" && !target.isin.startsWith("US");
  }

  read(target: ScrapeTarget): Promise<ScrapedPage> {
    return observed(this.name, this.watch, async () => {
      // The page address takes the ISIN itself: the mapping table is for instruments it does not find so.
      const id =
        SCRAPED_PAGE_MAP[this.name]?.[target.isin] ?? SCRAPED_PAGE_MAP[this.name]?.[target.ticker] ?? target.isin;
      const url = `${this.baseUrl}/aktien/kennzahlen/${encodeURIComponent(id)}`;
      const html = await fetchPage(this.name, url, target.isin, { timeoutMs: this.timeoutMs, deadline: this.deadline });
      return parseOnvista(html, url);
    });
  }
}
