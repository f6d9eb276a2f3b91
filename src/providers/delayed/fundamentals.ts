import { type Clock, type Deadline, systemClock } from "../../clock";
import type { SchemaDrift } from "../../domain/drift";
import type { Summary } from "../../domain/fundamentals/delayed-figures";
import { readSummary } from "../../domain/fundamentals/summary-schema";
import { readTimeseries, type TimeseriesRow } from "../../domain/fundamentals/timeseries";
import { DELAYED } from "../../domain/provider-names";
import { BROWSER_USER_AGENT, callTimeout, failureOf, ProviderError, redacted } from "../errors";
import { observed } from "../outcomes";
import { CookieJar } from "./cookies";
import { type Answer, openSession, type Send } from "./session";
import { TIMESERIES_ITEMS } from "./timeseries-items";

/**
 * The delayed provider's fundamentals: quoteSummary v10 (behind the cookie and crumb of a session,
 * see session.ts) and fundamentals-timeseries. Requests go to the provider's own addresses, rebased
 * onto DELAYED_PROVIDER_BASE_URL (the sandbox) unless that is the provider's host, each bounded by
 * the request's deadline; answers are read field by field by the service's own schemas.
 */

export type { TimeseriesRow };
export type StatementModule = keyof typeof TIMESERIES_ITEMS;
export type PeriodType = "annual" | "quarterly" | "trailing";

/** The quoteSummary modules the service asks for. */
export type QuoteSummaryModule =
  | "assetProfile"
  | "calendarEvents"
  | "defaultKeyStatistics"
  | "earningsHistory"
  | "earningsTrend"
  | "financialData"
  | "fundOwnership"
  | "fundProfile"
  | "institutionOwnership"
  | "majorHoldersBreakdown"
  | "price"
  | "quoteType"
  | "recommendationTrend"
  | "summaryDetail"
  | "summaryProfile"
  | "topHoldings";

/** An answer as the service read it: what was well-formed, and where the format departed from what it reads. */
export interface Read<T> {
  value: T;
  drifts: SchemaDrift[];
}

const SUMMARY_HOST = "https://query2.finance.yahoo.com";
const TIMESERIES_HOST = "https://query1.finance.yahoo.com";

/** A session's cookies and crumb: plain data, kept per base URL and isolate (the handshake costs two calls). */
interface Session {
  jar: CookieJar;
  crumb: string | null;
}
const sessions = new Map<string, Session>();

/** Whether the base URL is one of the provider's own hosts (production): then requests go out unchanged. */
const isProviderHost = (url: string) => /(^|\.)yahoo\.com$/i.test(new URL(url).hostname);

export class DelayedFundamentalsClient {
  /**
   * The handshake under way for this client's request. Kept per request, not per isolate: Workers
   * refuse I/O begun in one request and awaited in another.
   */
  #opening: Promise<string> | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 8000,
    private readonly deadline?: Deadline,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * The quoteSummary modules of `symbol` (absent modules are ones the provider has nothing for),
   * read field by field: a field gone or of another type costs that field, reported as a drift.
   */
  summary(symbol: string, modules: readonly QuoteSummaryModule[]): Promise<Read<Summary>> {
    return observed(DELAYED, this.clock, () =>
      this.withSession(async (session, fresh) => {
        const crumb = await this.crumbOf(session, fresh);
        const query = new URLSearchParams({ formatted: "false", modules: modules.join(","), crumb });
        const body = await this.getJson(`${SUMMARY_HOST}/v10/finance/quoteSummary/${symbol}?${query}`, session);
        const result = (body as { quoteSummary?: { result?: unknown[] } }).quoteSummary?.result?.[0];
        if (typeof result !== "object" || result === null)
          throw new ProviderError(DELAYED, "bad_response", "a quoteSummary answer without a result");
        const read = readSummary(DELAYED, result);
        return { value: read.summary, drifts: read.drifts };
      }),
    );
  }

  /** The statement items of one module and period type, with period ends in [from, to). */
  timeseries(
    symbol: string,
    module: StatementModule,
    type: PeriodType,
    from: Date,
    to: Date,
  ): Promise<Read<TimeseriesRow[]>> {
    return observed(DELAYED, this.clock, () =>
      this.withSession(async (session) => {
        const query = new URLSearchParams({
          period1: String(Math.floor(from.getTime() / 1000)),
          period2: String(Math.floor(to.getTime() / 1000)),
          type: TIMESERIES_ITEMS[module].map((item) => type + item).join(","),
        });
        const body = await this.getJson(
          `${TIMESERIES_HOST}/ws/fundamentals-timeseries/v1/finance/timeseries/${symbol}?${query}`,
          session,
        );
        try {
          const read = readTimeseries(DELAYED, body);
          return { value: read.rows, drifts: read.drifts };
        } catch (err) {
          throw new ProviderError(
            DELAYED,
            "bad_response",
            `an unreadable timeseries answer: ${(err as Error).message}`,
          );
        }
      }),
    );
  }

  /**
   * Runs a call in this isolate's session; a refused session (the provider expired the crumb) is
   * replaced by a new one and the call sent once more, as the provider's own clients do.
   */
  private async withSession<T>(run: (session: Session, fresh: boolean) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let session = sessions.get(this.baseUrl);
      if (!session || attempt > 0) {
        session = { jar: new CookieJar(), crumb: null };
        sessions.set(this.baseUrl, session);
      }
      try {
        return await run(session, attempt > 0);
      } catch (err) {
        if (err instanceof ProviderError && err.detail.startsWith("session refused") && attempt === 0) continue;
        throw err;
      }
    }
  }

  /** The session's crumb, opening the session first when it has none (once per request). */
  private async crumbOf(session: Session, fresh: boolean): Promise<string> {
    if (session.crumb !== null && !fresh) return session.crumb;
    if (fresh) this.#opening = null;
    this.#opening ??= openSession(session.jar, this.send, () => this.clock.now().getTime()).finally(() => {
      this.#opening = null;
    });
    session.crumb = await this.#opening;
    return session.crumb;
  }

  /** GET a JSON answer in the session: refusals, unknown symbols and error envelopes as ProviderErrors. */
  private async getJson(url: string, session: Session): Promise<unknown> {
    const cookie = session.jar.header(url, this.clock.now().getTime());
    const res = await this.send(url, {
      read: true,
      headers: { accept: "application/json", ...(cookie ? { cookie } : {}) },
    });
    let body: unknown = null;
    try {
      body = JSON.parse(res.text);
    } catch {
      if (res.status === 200) throw new ProviderError(DELAYED, "bad_response", "HTTP 200 with a body that is not JSON");
    }
    const error = envelopeError(body);
    const said = redacted(error?.description ?? error?.code ?? `HTTP ${res.status}`);
    if (res.status === 401 || error?.code === "Unauthorized" || /invalid (crumb|cookie)/i.test(said))
      throw new ProviderError(DELAYED, "unavailable", `session refused (${said.slice(0, 120)})`);
    if (res.status === 404 || error?.code === "Not Found")
      throw new ProviderError(DELAYED, "not_found", said.slice(0, 200));
    if (res.status !== 200 || error)
      throw new ProviderError(DELAYED, "bad_response", `HTTP ${res.status}: ${said.slice(0, 160)}`);
    return body;
  }

  /**
   * One provider request: its address rebased onto the base URL, redirects not followed, under the
   * deadline (the body, when read, too: a provider that stalls after the headers times out).
   */
  private readonly send: Send = async (url, init) => {
    const original = new URL(url);
    if (!isProviderHost(original.href))
      throw new ProviderError(DELAYED, "bad_response", "the provider sent the client to a host that is not its own");
    const target = isProviderHost(this.baseUrl)
      ? original.href
      : `${this.baseUrl}${original.pathname}${original.search}`;
    const ms = callTimeout(DELAYED, this.timeoutMs, this.deadline);
    try {
      const res = await fetch(target, {
        method: init.method ?? "GET",
        headers: { "user-agent": BROWSER_USER_AGENT, ...init.headers },
        body: init.body,
        redirect: "manual",
        signal: AbortSignal.timeout(ms),
      });
      if (res.status === 429) throw new ProviderError(DELAYED, "rate_limited", "rate limit reached (HTTP 429)", true);
      if (res.status >= 500) throw new ProviderError(DELAYED, "unavailable", `HTTP ${res.status}`, true);
      const answer: Answer = { status: res.status, headers: res.headers, text: "" };
      if (init.read) answer.text = await res.text();
      else await res.body?.cancel();
      return answer;
    } catch (err) {
      throw failureOf(DELAYED, err, ms, target, this.timeoutMs);
    }
  };
}

/** The provider's error envelope (`{ <root>: { result: null, error: { code, description } } }`), if the answer is one. */
function envelopeError(body: unknown): { code?: string; description?: string } | null {
  if (typeof body !== "object" || body === null) return null;
  const roots = Object.values(body as Record<string, unknown>);
  if (roots.length !== 1) return null;
  const error = (roots[0] as { error?: unknown } | null)?.error;
  if (typeof error !== "object" || error === null) return null;
  const { code, description } = error as { code?: unknown; description?: unknown };
  return {
    code: typeof code === "string" ? code : undefined,
    description: typeof description === "string" ? description : undefined,
  };
}
