import { XMLParser, XMLValidator } from "fast-xml-parser";
import { type Clock, type Deadline, systemClock } from "../../clock";
import { type DriftSink, describe, NO_DRIFT_SINK, type SchemaDrift, uniqueDrifts } from "../../domain/drift";
import type { NewsArticle } from "../../domain/news/article";
import { readWire, type WireNode } from "../../domain/wire-schema";
import { ProviderError } from "../errors";
import { BROWSER_USER_AGENT, getText } from "../http";
import { observed } from "../isolate";
import { NO_RESTS, type RestPolicy } from "../rest";

/** What a news provider is asked: the instrument, how many articles, from when. */
export interface NewsQuery {
  /** The ticker as the catalogue writes it (AAPL, MC.PA). */
  ticker: string;
  /** The company's name without its legal form ("LVMH Moët Hennessy Louis Vuitton"), for full-text providers. */
  company: string;
  /** The language of the listing's market (en, fr, de ...): what the full-text providers are asked in. */
  language: string;
  /** How many articles to ask for (twice what the request wants: spec News rule 5). */
  limit: number;
  /** The oldest day asked for, YYYY-MM-DD, and today. */
  from: string;
  to: string;
}

/** One news provider: its name, whether it can be asked (a keyed one without its key cannot), and the fetch. */
export interface NewsProvider {
  readonly name: string;
  readonly configured: boolean;
  fetch(q: NewsQuery): Promise<NewsArticle[]>;
}

export interface NewsClientOptions {
  baseUrl: string;
  /** The provider's key; undefined for a keyless provider or when not set. */
  key?: string;
  timeoutMs: number;
  deadline?: Deadline;
  clock?: Clock;
  /** Where the drift read around goes (the work's journal). */
  drifts?: DriftSink;
  /** When the provider rests after failing; resting off without one. */
  restPolicy?: RestPolicy;
}

/**
 * What every news client shares: its settings, one call under its own timeout (cut to the
 * request's deadline) whose outcome `/health` keeps, and the provider's name on every failure.
 */
export abstract class NewsClient implements NewsProvider {
  abstract readonly name: string;
  /** Whether the provider needs a key (then it is not asked without one). */
  protected abstract readonly keyed: boolean;

  constructor(protected readonly opts: NewsClientOptions) {}

  get configured(): boolean {
    return !this.keyed || this.opts.key !== undefined;
  }

  async fetch(q: NewsQuery): Promise<NewsArticle[]> {
    if (!this.configured) throw new ProviderError(this.name, "unavailable", "not configured (no key)");
    const drifts: SchemaDrift[] = [];
    try {
      return await observed(
        this.name,
        { clock: this.opts.clock ?? systemClock, restPolicy: this.opts.restPolicy ?? NO_RESTS },
        () => this.read(q, drifts),
      );
    } finally {
      (this.opts.drifts ?? NO_DRIFT_SINK).report(q.ticker, uniqueDrifts(drifts));
    }
  }

  /** The provider's articles for `q`; an item or field of another shape than documented goes to `drifts`. */
  protected abstract read(q: NewsQuery, drifts: SchemaDrift[]): Promise<NewsArticle[]>;

  /**
   * Each item of a list read field by field with `node` (domain/wire-schema): an item without what
   * it needs (its title, address, time) is left out, an optional field of another type is dropped;
   * both are reported.
   */
  protected items<T>(list: readonly unknown[], node: WireNode, document: string, drifts: SchemaDrift[]): T[] {
    const at = { provider: this.name, document, path: "[]" };
    return list.flatMap((item) => {
      const r = readWire(item, node, at, drifts);
      return r === undefined ? [] : [r as T];
    });
  }

  /** A field the client could not read though it had the right type (a time in another format). */
  protected unreadable(drifts: SchemaDrift[], document: string, path: string, expected: string, seen: unknown): void {
    drifts.push({ provider: this.name, document, path, expected, seen: describe(seen) });
  }

  protected fail(failure: ProviderError["failure"], detail: string): ProviderError {
    return new ProviderError(this.name, failure, detail);
  }

  /** GET `path` (with its query) on the provider's base URL: the status and the text. */
  protected async get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
    return getText(this.name, `${this.opts.baseUrl}${path}`, {
      timeoutMs: this.opts.timeoutMs,
      deadline: this.opts.deadline,
      headers: { "user-agent": BROWSER_USER_AGENT, ...headers },
    });
  }

  /**
   * Any status but 200 fails, a 404 too: no news provider answers an unknown symbol with it (they
   * answer an empty list), so a 404 is a moved endpoint or a wrong base URL, which must show.
   */
  protected expectOk(status: number): void {
    if (status !== 200) throw this.fail("bad_response", `HTTP ${status}`);
  }

  /** A JSON body, or a bad response naming what came instead. */
  protected json(status: number, text: string): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw this.fail("bad_response", `HTTP ${status} with a body that is not JSON`);
    }
  }
}

// Values stay text: a title "1e3" or "007" is not a number.
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  parseTagValue: false,
  parseAttributeValue: false,
});

/** The items of an RSS 2.0 document; a body that is not RSS is a bad response. */
export function rssItems(provider: string, text: string): Record<string, unknown>[] {
  let doc: { rss?: { channel?: { item?: unknown } } };
  // The parser reads a truncated document without complaint: it is checked whole first.
  if (XMLValidator.validate(text) !== true)
    throw new ProviderError(provider, "bad_response", "a body that is not well-formed XML");
  try {
    doc = xml.parse(text) as typeof doc;
  } catch {
    throw new ProviderError(provider, "bad_response", "a body that is not XML");
  }
  if (!doc.rss || typeof doc.rss !== "object" || !("channel" in doc.rss))
    throw new ProviderError(provider, "bad_response", "a body that is not an RSS channel");
  // An empty channel parses to "": a feed with no item.
  const items = typeof doc.rss.channel === "object" ? doc.rss.channel?.item : undefined;
  return (Array.isArray(items) ? items : items ? [items] : []) as Record<string, unknown>[];
}

/** An XML element's text, whether the parser gave a string or an object with attributes. */
export function xmlText(v: unknown): string {
  if (typeof v === "string" || typeof v === "number") return String(v);
  if (v && typeof v === "object" && "#text" in v) return String((v as Record<string, unknown>)["#text"]);
  return "";
}
