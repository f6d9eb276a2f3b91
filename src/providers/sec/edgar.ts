import type { Deadline } from "../../clock";
import { type SchemaDrift, uniqueDrifts } from "../../domain/drift";
import { EDGAR } from "../../domain/provider-names";
import { readWire, type WireNode } from "../../domain/wire-schema";
import type { Cache } from "../../platform/cache";
import { ProviderError } from "../errors";
import { callTimeout, failureOf, fetchOnHost, readCapped } from "../http";
import { isolate, observed } from "../isolate";
import { type ClientOptions, ProviderClient } from "../options";

/**
 * SEC EDGAR: ticker -> CIK (company_tickers.json, kept a day), a registrant's recent filings (the
 * submissions JSON), and a Form 4's raw XML. Every request declares SEC_USER_AGENT (EDGAR refuses
 * undeclared agents) and is paced to at most ten a second per isolate (EDGAR's fair-access rule).
 */

export interface FilingRef {
  accession: string;
  form: "4" | "4/A";
  filingDate: string;
  reportDate: string | null;
  /** The raw XML's address (the primary document without its xslF345X0N/ rendering prefix). */
  xmlUrl: string;
  /** The filing's index page on EDGAR, for people. */
  filingUrl: string;
}

/**
 * What the client reads, field by field (domain/wire-schema): an entry of company_tickers.json
 * without its CIK or ticker is left out, a filings column gone or of another type costs that
 * column; each is reported as schema_drift.
 */
export const TICKER_ENTRY: WireNode = { fields: { cik_str: { required: "number" }, ticker: { required: "string" } } };
/** A filings column: EDGAR always sends every one, so one gone is drift. */
const COLUMN: WireNode = { always: { series: "string" } };
export const SUBMISSIONS: WireNode = {
  fields: {
    filings: {
      always: {
        fields: {
          recent: {
            always: {
              fields: {
                accessionNumber: COLUMN,
                filingDate: COLUMN,
                reportDate: COLUMN,
                form: COLUMN,
                primaryDocument: COLUMN,
              },
            },
          },
        },
      },
    },
  },
};
type Column = (string | null)[];
interface Recent {
  accessionNumber?: Column;
  filingDate?: Column;
  reportDate?: Column;
  form?: Column;
  primaryDocument?: Column;
}

const TICKERS_KEY = "sec:company_tickers";
const TICKERS_TTL = 86_400;
/**
 * Waits for this isolate's next EDGAR slot (the limiter); a slot that would come after the
 * request's deadline is not taken: the request is not made. Spacing is measured on the monotonic
 * timer, not the business clock (a pinned clock must not change how fast EDGAR is asked).
 */
async function paced(spacingMs: number, deadline?: Deadline): Promise<void> {
  const now = performance.now();
  const slot = Math.max(now, isolate.edgarPace.nextSlot);
  if (deadline && slot - now >= deadline.remainingMs())
    throw new ProviderError(
      EDGAR,
      "deadline",
      "not asked: EDGAR's rate limit leaves no slot before the request's deadline",
    );
  isolate.edgarPace.nextSlot = slot + spacingMs;
  if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
}

/** EDGAR's client options: its two hosts, the identity it asks for, the cache of its filings, its pace. */
export interface EdgarOptions extends ClientOptions {
  /** The host of the filing index (`baseUrl`: the full-text and archive host). */
  dataBaseUrl: string;
  /** "Company contact@example.com"; without it EDGAR is not asked. */
  userAgent: string | undefined;
  cache: Cache;
  /**
   * EDGAR's fair-access limit is ten requests a second; eight (a start every 125 ms) leaves a
   * margin for requests that arrive bunched after network jitter (SEC_REQUESTS_PER_SECOND).
   */
  requestsPerSecond?: number;
}

export class EdgarClient extends ProviderClient {
  readonly name = EDGAR;
  private readonly dataBaseUrl: string;
  private readonly userAgent: string | undefined;
  private readonly cache: Cache;
  private readonly spacingMs: number;

  constructor(o: EdgarOptions) {
    super(o);
    this.dataBaseUrl = o.dataBaseUrl;
    this.userAgent = o.userAgent;
    this.cache = o.cache;
    const requestsPerSecond = o.requestsPerSecond ?? 8;
    // EDGAR's own hosts never get more than its rule allows, whatever the setting says.
    const sec = [o.baseUrl, o.dataBaseUrl].some((u) => /(^|\.)sec\.gov$/i.test(new URL(u).hostname));
    this.spacingMs = 1000 / (sec ? Math.min(requestsPerSecond, 10) : requestsPerSecond);
  }

  get configured(): boolean {
    return this.userAgent !== undefined;
  }

  /** The registrant's CIK, or null when EDGAR lists no registrant under the ticker. */
  async cikOf(ticker: string): Promise<number | null> {
    let map = await this.cache.get<Record<string, number>>(TICKERS_KEY);
    if (!map) {
      map = await observed(EDGAR, this.watch, async () => {
        const body = await this.json(`${this.baseUrl}/files/company_tickers.json`);
        if (typeof body !== "object" || body === null || Array.isArray(body))
          throw new ProviderError(EDGAR, "bad_response", "company_tickers.json of unexpected shape");
        const drifts: SchemaDrift[] = [];
        const at = { provider: EDGAR, document: "company_tickers", path: "{}" };
        const out: Record<string, number> = {};
        for (const entry of Object.values(body)) {
          const e = readWire(entry, TICKER_ENTRY, at, drifts) as { cik_str: number; ticker: string } | undefined;
          if (e) out[e.ticker.toUpperCase()] = e.cik_str;
        }
        this.drifts.report("company_tickers", uniqueDrifts(drifts));
        if (Object.keys(out).length === 0)
          throw new ProviderError(EDGAR, "bad_response", "company_tickers.json without a readable entry");
        return out;
      });
      await this.cache.set(TICKERS_KEY, map, TICKERS_TTL);
    }
    return map[ticker.toUpperCase()] ?? null;
  }

  /** The registrant's recent Form 4 and 4/A filings, newest first. */
  recentForm4(cik: number): Promise<FilingRef[]> {
    return observed(EDGAR, this.watch, () => this.fetchRecentForm4(cik));
  }

  private async fetchRecentForm4(cik: number): Promise<FilingRef[]> {
    const padded = String(cik).padStart(10, "0");
    const drifts: SchemaDrift[] = [];
    const read = readWire(
      await this.json(`${this.dataBaseUrl}/submissions/CIK${padded}.json`),
      SUBMISSIONS,
      { provider: EDGAR, document: "submissions", path: "" },
      drifts,
    ) as { filings?: { recent?: Recent } } | undefined;
    this.drifts.report(`CIK${padded}`, uniqueDrifts(drifts));
    const r = read?.filings?.recent;
    // Without the forms (or where they are) no filing can be told: the answer cannot be read.
    if (!r?.form || !r.accessionNumber || !r.primaryDocument)
      throw new ProviderError(EDGAR, "bad_response", "submissions without their recent filings' forms");
    const out: FilingRef[] = [];
    r.form.forEach((form, i) => {
      if (form !== "4" && form !== "4/A") return;
      const accession = r.accessionNumber?.[i];
      const doc = r.primaryDocument?.[i];
      const filingDate = r.filingDate?.[i];
      if (!accession || !doc || !filingDate) return;
      const folder = `${this.baseUrl}/Archives/edgar/data/${cik}/${accession.replaceAll("-", "")}`;
      out.push({
        accession,
        form,
        filingDate,
        reportDate: r.reportDate?.[i] || null,
        xmlUrl: `${folder}/${doc.replace(/^xslF345X0\d\//, "")}`,
        filingUrl: `${folder}/${accession}-index.htm`,
      });
    });
    return out;
  }

  /** A filing's raw XML. */
  form4Xml(ref: FilingRef): Promise<string> {
    return observed(EDGAR, this.watch, async () => (await this.get(ref.xmlUrl)).text);
  }

  private async json(url: string): Promise<unknown> {
    const { status, text } = await this.get(url);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ProviderError(EDGAR, "bad_response", `HTTP ${status} with a body that is not JSON`);
    }
  }

  /**
   * One paced request with the declared agent; EDGAR's refusals as ProviderErrors. The public calls
   * record their outcome for /health, parsing included (a malformed answer is a failing provider).
   */
  private async get(url: string): Promise<{ status: number; text: string }> {
    if (!this.userAgent)
      throw new ProviderError(
        EDGAR,
        "unavailable",
        "not asked: SEC_USER_AGENT is not set (EDGAR refuses undeclared agents)",
      );
    await paced(this.spacingMs, this.deadline);
    const ms = callTimeout(EDGAR, this.timeoutMs, this.deadline);
    let res: Response;
    let text: string;
    try {
      res = await fetchOnHost(
        EDGAR,
        url,
        { "user-agent": this.userAgent, accept: "application/json, text/xml" },
        AbortSignal.timeout(ms),
      );
      text = await readCapped(EDGAR, res);
    } catch (err) {
      throw failureOf(EDGAR, err, ms, url, this.timeoutMs);
    }
    if (res.status === 403 || res.status === 429) {
      // EDGAR's page for an agent it does not accept asks the caller to declare its traffic; its page for
      // too many requests names the rate threshold (both may share a title).
      if (/declare your traffic|update your user agent/i.test(text))
        throw new ProviderError(
          EDGAR,
          "unavailable",
          "EDGAR refused the request as from an undeclared tool (HTTP 403)",
        );
      if (/Rate Threshold/i.test(text))
        throw new ProviderError(EDGAR, "rate_limited", "request rate threshold exceeded (HTTP 403)", true);
      throw new ProviderError(EDGAR, "unavailable", "EDGAR refused the request as from an undeclared tool (HTTP 403)");
    }
    if (res.status >= 500) throw new ProviderError(EDGAR, "unavailable", `HTTP ${res.status}`, true);
    if (res.status === 404) throw new ProviderError(EDGAR, "not_found", "EDGAR has no such document");
    if (res.status !== 200) throw new ProviderError(EDGAR, "bad_response", `HTTP ${res.status}`);
    if (/^\s*</.test(text) && /<html/i.test(text.slice(0, 200)))
      throw new ProviderError(EDGAR, "bad_response", "an HTML page where a document was expected");
    return { status: res.status, text };
  }
}
