import type { SchemaDrift } from "../../domain/drift";
import type { Summary } from "../../domain/fundamentals/delayed-figures";
import { readSummary } from "../../domain/fundamentals/summary-schema";
import { readTimeseries, type TimeseriesRow } from "../../domain/fundamentals/timeseries";
import { DELAYED } from "../../domain/provider-names";
import { ProviderError, redacted } from "../errors";
import { BROWSER_USER_AGENT, callTimeout, failureOf, readCapped } from "../http";
import { isolate, observed, type DelayedSession as Session } from "../isolate";
import { ProviderClient } from "../options";
import { CookieJar } from "./cookies";
import { type Answer, openSession, type Send, SessionRefused } from "./session";
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

const sessions = isolate.delayedSessions;

/** Whether the base URL is one of the provider's own hosts (production): then requests go out unchanged. */
const isProviderHost = (url: string) => /(^|\.)yahoo\.com$/i.test(new URL(url).hostname);

export class DelayedFundamentalsClient extends ProviderClient {
  /**
   * The handshake under way for this client's request, and the refused session it replaces (none
   * for the first). Kept per request, not per isolate: Workers refuse I/O begun in one request and
   * awaited in another.
   */
  #opening: { session: Promise<Session>; replaces: Session | undefined } | null = null;

  /**
   * The quoteSummary modules of `symbol` (absent modules are ones the provider has nothing for),
   * read field by field: a field gone or of another type costs that field, reported as a drift.
   */
  async summary(symbol: string, modules: readonly QuoteSummaryModule[]): Promise<Read<Summary>> {
    await this.pace(DELAYED);
    return observed(DELAYED, this.watch, () =>
      this.withSession(async (session) => {
        const query = new URLSearchParams({ formatted: "false", modules: modules.join(","), crumb: session.crumb });
        const body = await this.getJson(`${SUMMARY_HOST}/v10/finance/quoteSummary/${symbol}?${query}`, session.jar);
        const result = (body as { quoteSummary?: { result?: unknown[] } } | null)?.quoteSummary?.result?.[0];
        if (typeof result !== "object" || result === null)
          throw new ProviderError(DELAYED, "bad_response", "a quoteSummary answer without a result");
        const read = readSummary(DELAYED, result);
        return { value: read.summary, drifts: read.drifts };
      }),
    );
  }

  /**
   * The statement items of one module and period type, with period ends in [from, to). No crumb is
   * asked: the session's cookies are sent when there is one, as the provider's pages do.
   */
  async timeseries(
    symbol: string,
    module: StatementModule,
    type: PeriodType,
    from: Date,
    to: Date,
  ): Promise<Read<TimeseriesRow[]>> {
    await this.pace(DELAYED);
    return observed(DELAYED, this.watch, async () => {
      const query = new URLSearchParams({
        period1: String(Math.floor(from.getTime() / 1000)),
        period2: String(Math.floor(to.getTime() / 1000)),
        type: TIMESERIES_ITEMS[module].map((item) => type + item).join(","),
      });
      const body = await this.getJson(
        `${TIMESERIES_HOST}/ws/fundamentals-timeseries/v1/finance/timeseries/${symbol}?${query}`,
        sessions.get(this.baseUrl)?.jar,
      );
      try {
        const read = readTimeseries(DELAYED, body);
        return { value: read.rows, drifts: read.drifts };
      } catch (err) {
        throw new ProviderError(DELAYED, "bad_response", `an unreadable timeseries answer: ${(err as Error).message}`);
      }
    });
  }

  /**
   * Runs a call in this isolate's session (opened first when there is none); a refused session
   * (the provider expired the crumb) is replaced by a new one and the call sent once more, as the
   * provider's own clients do.
   */
  private async withSession<T>(run: (session: Session) => Promise<T>): Promise<T> {
    const session = sessions.get(this.baseUrl) ?? (await this.open(undefined));
    try {
      return await run(session);
    } catch (err) {
      if (!(err instanceof SessionRefused)) throw err;
      return run(await this.open(session));
    }
  }

  /**
   * A new session, in a jar of its own, kept for the isolate once complete. A request's calls
   * that need one at once share its handshake; a session refused again by another call of the
   * request is replaced only once.
   */
  private open(replaces: Session | undefined): Promise<Session> {
    if (this.#opening && this.#opening.replaces === replaces) return this.#opening.session;
    const jar = new CookieJar();
    const session = openSession(jar, this.send, () => this.clock.now().getTime()).then((crumb) => {
      const opened = { jar, crumb };
      // Unless another request has kept a newer one meanwhile.
      const current = sessions.get(this.baseUrl);
      if (current === undefined || current === replaces) sessions.set(this.baseUrl, opened);
      return opened;
    });
    const opening = { session, replaces };
    this.#opening = opening;
    session.catch(() => {
      if (this.#opening === opening) this.#opening = null;
    });
    return session;
  }

  /** GET a JSON answer with the jar's cookies: refusals, unknown symbols and error envelopes as ProviderErrors. */
  private async getJson(url: string, jar: CookieJar | undefined): Promise<unknown> {
    const cookie = jar?.header(url, this.clock.now().getTime());
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
      throw new SessionRefused(said.slice(0, 120));
    // The provider's own "no such symbol" (its envelope); a bare 404 is an address that moved.
    if (error?.code === "Not Found") throw new ProviderError(DELAYED, "not_found", said.slice(0, 200));
    if (res.status !== 200 || error)
      throw new ProviderError(
        DELAYED,
        "bad_response",
        error ? `HTTP ${res.status}: ${said.slice(0, 160)}` : `HTTP ${res.status} without the provider's answer`,
      );
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
      if (res.status === 429 || res.status >= 500) {
        // The body is not read: the connection is let go now, not when the answer is collected.
        await res.body?.cancel();
        if (res.status === 429) throw new ProviderError(DELAYED, "rate_limited", "rate limit reached (HTTP 429)", true);
        throw new ProviderError(DELAYED, "unavailable", `HTTP ${res.status}`, true);
      }
      const answer: Answer = { status: res.status, headers: res.headers, text: "" };
      if (init.read) answer.text = await readCapped(DELAYED, res);
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
