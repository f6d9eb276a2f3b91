import { createServer, type ServerResponse } from "node:http";
import { type HttpFaultMode, SimulatorControl } from "./control";
import { type SimCompany, simCompany } from "./fundamentals-data";
import { hash, SIM_LINES_OF_ISIN, SIM_SYMBOLS } from "./market-data";

/**
 * The scraped providers' simulator: the two web pages the service reads for trailing P/E, EPS and
 * dividend yield, in their real markup, from the simulated companies' figures.
 * - markets.businessinsider.com (US shares): GET /ajax/SearchController_Suggest?query=<ISIN> and
 *   GET /stocks/<slug>-stock, an HTML page with the ISIN in its header and a snapshot block.
 * - onvista.de (European shares): GET /aktien/kennzahlen/<ISIN>, an HTML page whose figures travel
 *   in `<script id="__NEXT_DATA__">` JSON, per fiscal year, the yield in percent.
 * Quirks of real pages, on purpose: onvista's page of SAP (DE0007164600) is about Siemens
 * (DE0007236101), a page about another instrument; its page of Adyen (NL0012969182) shows a yield of
 * 0.21 whose scale (21 % or 0.21 %) nothing on the page settles.
 * Faults on demand: POST /__sandbox/faults {"symbol": <ISIN or slug> | "suggest <QUERY>" | "*", "mode", "times"?} with
 * modes 500, timeout, malformed, unknown (404), ratelimit (429), error200 (a consent page served with
 * HTTP 200 instead of the figures), out_of_range (the P/E written 1,000 times too large and the
 * dividend yield 100 times, as a page that changed its units would: the canary must fail);
 * DELETE /__sandbox/faults[?symbol=]. GET /__sandbox/requests counts requests per page.
 */

export type ScrapedFaultMode = HttpFaultMode | "out_of_range";

/** How the out_of_range fault scales the figures of a page. */
const UNITS_CHANGED = { pe: 1000, yield: 100 };

export interface ScrapedPagesSim {
  url: string;
  close(): Promise<void>;
}

/** Pages that answer about another instrument than the one in their address. */
const WRONG_INSTRUMENT: Record<string, string> = { DE0007164600: "DE0007236101" };
/** A yield written without its scale: 0.21 for 0.21 %, which reads as 21 % just as well. */
const UNSCALED_YIELD: Record<string, number> = { NL0012969182: 0.21 };

const r2 = (x: number) => Math.round(x * 100) / 100;

/** The company behind an ISIN (its first listing in the catalogue, the primary one). */
function companyOfIsin(isin: string): SimCompany | null {
  const first = SIM_LINES_OF_ISIN.get(isin)?.[0];
  return first ? simCompany(first.symbol) : null;
}

/** A line's page id: a US share's by its ticker (`aapl`, `brk.b`), another's by its name (`aallon_group`). */
function slugOf(s: { symbol: string; isin: string; name: string }): string {
  if (s.isin.startsWith("US")) return s.symbol === "BRK-B" ? "brk.b" : s.symbol.toLowerCase();
  return s.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
}

/** The company of a page id: US shares only (the site's pages the service reads). */
function companyOfSlug(slug: string): SimCompany | null {
  for (const s of SIM_SYMBOLS.values()) if (s.isin.startsWith("US") && slugOf(s) === slug) return simCompany(s.symbol);
  return null;
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const en = (x: number) => x.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function businessInsiderPage(c: SimCompany, unitsChanged: boolean): string {
  const eps = c.ttm.dilutedEps;
  const k = unitsChanged ? UNITS_CHANGED : { pe: 1, yield: 1 };
  const pe = eps > 0 ? en(r2((c.price / eps) * k.pe)) : "-";
  const yieldText = c.dividendRate > 0 ? `${en((c.dividendRate / c.price) * 100 * k.yield)}%` : "-";
  const item = (value: string, label: string) =>
    `<div class="snapshot__data-item">${value}<div class="snapshot__header">${label}</div></div>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(c.seed.name)} Stock Price | ${c.sym.symbol} Stock Quote</title></head>
<body>
<div class="price-section">
  <h1 class="price-section__label">${escapeHtml(c.seed.name)}</h1>
  <div class="price-section__identifiers">
    <span class="price-section__category">Stock</span> <span>${c.sym.symbol}</span>
    <span class="price-section__category">ISIN</span> <span>${c.seed.isin}</span>
  </div>
  <span class="price-section__current-value">${en(c.price)}</span> <span>USD</span>
</div>
<div class="snapshot">
  ${item(en(c.previousClose), "Prev. Close")}
  ${item(en(c.fiftyTwoWeekHigh), "52 Week High")}
  ${item(pe, "P/E Ratio")}
  ${item(en(eps), "EPS in USD")}
  ${item(yieldText, "Dividend Yield")}
  ${item(en((c.price * c.sharesOutstanding) / 1e9), "Market Cap (bn)")}
</div>
</body></html>`;
}

/**
 * The site's suggestions for a query, in its real format: an ISIN finds the instrument, a ticker
 * finds every instrument with a line of that ticker (suffix aside). Keywords are `TICKER|ISIN|…`,
 * the last field `slug|TICKER|1|<id>`, as the site sends them.
 */
function suggestions(query: string): string {
  const q = query.trim().toUpperCase();
  const lines = SIM_LINES_OF_ISIN.get(q) ?? [...SIM_SYMBOLS.values()].filter((s) => baseOf(s.symbol) === q);
  const seen = new Set<string>();
  const rows = lines.flatMap((s) => {
    if (seen.has(s.isin)) return [];
    seen.add(s.isin);
    const ticker = baseOf(s.symbol);
    const slug = slugOf(s);
    const id = hash(s.isin) % 900_000_000;
    return [
      `new Array("${s.name}", "Stocks", "${ticker}|${s.isin}|${ticker}||", "75", "", "${slug}|${ticker}|1|${id}")`,
    ];
  });
  return `mmSuggestDeliver(0, new Array("Name", "Category", "Keywords", "Bias", "Extension", "IDs"), new Array(${rows.join(",")}), ${rows.length}, 0);`;
}

/** A line's ticker without its venue suffix (BRK-B keeps its class letter). */
const baseOf = (symbol: string) => symbol.replace(/\.[A-Z]{1,2}$/, "");

function onvistaPage(asked: string, c: SimCompany, unitsChanged: boolean): string {
  const k = unitsChanged ? UNITS_CHANGED : { pe: 1, yield: 1 };
  const years = c.annual.slice(-3).map((p) => ({
    label: p.end.slice(0, 4),
    idYear: Number(p.end.slice(0, 4)),
    eps: p.dilutedEps,
  }));
  const last = years.at(-1);
  const estimates = last
    ? [1, 2].map((k) => ({ label: `${last.idYear + k}e`, idYear: last.idYear + k, eps: r2(last.eps * (1 + 0.07 * k)) }))
    : [];
  const yieldPercent =
    UNSCALED_YIELD[asked] ?? (c.dividendRate > 0 ? r2((c.dividendRate / c.price) * 100 * k.yield) : null);
  const data = {
    props: {
      pageProps: {
        data: {
          snapshot: {
            instrument: {
              isin: c.seed.isin,
              name: c.seed.name,
              symbol: c.sym.symbol.split(".")[0],
              entityType: "STOCK",
            },
          },
          figures: {
            stocksCnFundamentalList: {
              list: [...years, ...estimates].map((y) => ({
                label: y.label,
                idYear: y.idYear,
                cnPer: y.eps > 0 ? r2((c.price / y.eps) * k.pe) : null,
                cnDivYield: yieldPercent,
                cnDps: c.dividendRate || null,
              })),
            },
            stocksCnFinancialList: {
              list: [...years, ...estimates].map((y) => ({ label: y.label, idYear: y.idYear, cnEpsAdj: y.eps })),
            },
          },
        },
      },
    },
    page: "/aktien/kennzahlen/[...slug]",
  };
  return `<!DOCTYPE html>
<html lang="de"><head><meta charset="utf-8"><title>${escapeHtml(c.seed.name)} Kennzahlen | onvista</title></head>
<body><div id="__next"><h1>${escapeHtml(c.seed.name)} Aktie</h1><p>KGV, Dividendenrendite, Gewinn je Aktie</p></div>
<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(data)}</script>
</body></html>`;
}

const CONSENT_PAGE =
  '<!DOCTYPE html><html><head><title>Privacy settings</title></head><body><form method="post" action="/consent"><button>Accept all</button></form></body></html>';

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(html);
}

export async function startScrapedPagesSim(opts: { port?: number } = {}): Promise<ScrapedPagesSim> {
  const control = new SimulatorControl<ScrapedFaultMode>();

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://sim");
    const path = url.pathname;
    if (await control.handle(req, res, url)) return;
    const bi = /^\/stocks\/([^/]+)-stock$/.exec(path);
    const ov = /^\/aktien\/kennzahlen\/([^/]+)$/.exec(path);
    const suggest = path === "/ajax/SearchController_Suggest";
    const key = decodeURIComponent(bi?.[1] ?? ov?.[1] ?? url.searchParams.get("query") ?? "");
    control.count(`${bi ? "businessinsider" : ov ? "onvista" : suggest ? "suggest" : path} ${key}`);
    // The search takes only faults set for it by name (`suggest <query>`): a page's fault is the page's.
    const fault = suggest ? control.takeOwn(`suggest ${key.toUpperCase()}`) : control.take(key);
    if (control.transport(fault, res)) return;
    if (fault === "timeout") {
      control.hold(res);
      return;
    }
    if (fault === "500") return sendHtml(res, 500, "<html><body>Internal Server Error</body></html>");
    if (fault === "ratelimit") return sendHtml(res, 429, "<html><body>Too Many Requests</body></html>");
    if (fault === "error200") return sendHtml(res, 200, CONSENT_PAGE);
    if (suggest) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
      return res.end(suggestions(key.toUpperCase()));
    }
    if (bi) {
      const c = fault === "unknown" ? null : companyOfSlug(key);
      if (!c) return sendHtml(res, 404, "<html><body><h1>Page not found</h1></body></html>");
      const page = businessInsiderPage(c, fault === "out_of_range");
      // Malformed: the body breaks off before the page says what it is about.
      return sendHtml(
        res,
        200,
        fault === "malformed" ? page.slice(0, page.indexOf('<div class="price-section">') + 30) : page,
      );
    }
    if (ov) {
      const isin = key.toUpperCase();
      const c = fault === "unknown" || isin.startsWith("US") ? null : companyOfIsin(WRONG_INSTRUMENT[isin] ?? isin);
      if (!c || c.sym.quoteType === "ETF")
        return sendHtml(res, 404, "<html><body><h1>Seite nicht gefunden</h1></body></html>");
      const page = onvistaPage(isin, c, fault === "out_of_range");
      if (fault === "malformed") {
        // The JSON cut short inside the script element.
        const cut = page.indexOf('"figures"');
        return sendHtml(res, 200, `${page.slice(0, cut)}</script></body></html>`);
      }
      return sendHtml(res, 200, page);
    }
    sendHtml(res, 404, "<html><body>Not found</body></html>");
  });
  return control.listen(server, opts.port);
}
