import createYahooFinance from "yahoo-finance2/createYahooFinance";
import { ExtendedCookieJar } from "yahoo-finance2/lib/cookieJar";
import fundamentalsTimeSeries from "yahoo-finance2/modules/fundamentalsTimeSeries";
import quoteSummary, { type QuoteSummaryResult } from "yahoo-finance2/modules/quoteSummary";
import { type Clock, type Deadline, systemClock } from "../../clock";
import { type SchemaDrift, uniqueDrifts } from "../../domain/drift";
import type { Summary } from "../../domain/fundamentals/delayed-figures";
import { type LibraryIssue, libraryDrifts, readSummary } from "../../domain/fundamentals/summary-schema";
import { readTimeseries, type TimeseriesRow } from "../../domain/fundamentals/timeseries";
import { DELAYED } from "../../domain/provider-names";
import { BROWSER_USER_AGENT, callTimeout, failureOf, ProviderError, redacted } from "../errors";
import { observed } from "../outcomes";

/**
 * The delayed provider's fundamentals (quoteSummary v10 and fundamentals-timeseries) through the
 * yahoo-finance2 library, which follows the cookie/crumb/consent handshake and validates each answer
 * against its schemas. Its requests are sent through our fetch: aimed at DELAYED_PROVIDER_BASE_URL
 * (the sandbox) unless that is the provider's own host, bounded by the request's deadline, and with
 * the provider's refusals turned into ProviderErrors.
 */

export type { QuoteSummaryResult, TimeseriesRow };
export type StatementModule = "financials" | "balance-sheet" | "cash-flow";
export type PeriodType = "annual" | "quarterly" | "trailing";

/** An answer as the service read it: what was well-formed, and where the format departed from what it reads. */
export interface Read<T> {
  value: T;
  drifts: SchemaDrift[];
}

/** The body of an answer the service reads itself (the library is given a copy). */
interface Captured {
  status: number;
  text: string;
}

/** The last answer received, parsed: it must have come with HTTP 200 and be JSON. */
function answerOf(captured: readonly Captured[]): unknown {
  const answer = captured.at(-1);
  if (answer?.status !== 200) throw new ProviderError(DELAYED, "bad_response", "no answer was received");
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    throw new ProviderError(DELAYED, "bad_response", "HTTP 200 with a body that is not JSON");
  }
}

const YahooFinance = createYahooFinance({ modules: { quoteSummary, fundamentalsTimeSeries } });
type Client = InstanceType<typeof YahooFinance>;

/** The library's own notices and validation reports stay out of the Worker's log; failures reach us as errors. */
const quietLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  dir: () => undefined,
};

/**
 * One cookie jar per base URL and isolate: it keeps the provider's session and crumb between
 * requests (the handshake costs two provider calls). The library's client, whose request queue
 * holds I/O, is made per request: Workers refuse I/O begun in one request and finished in another.
 */
const jars = new Map<string, ExtendedCookieJar>();

function jarFor(baseUrl: string, fresh: boolean): ExtendedCookieJar {
  let jar = jars.get(baseUrl);
  if (!jar || fresh) {
    jar = new ExtendedCookieJar();
    jars.set(baseUrl, jar);
  }
  return jar;
}

function newClient(jar: ExtendedCookieJar): Client {
  return new YahooFinance({
    cookieJar: jar,
    logger: quietLogger,
    validation: { logErrors: false, logOptionsErrors: false, allowAdditionalProps: true },
    suppressNotices: ["yahooSurvey"],
    versionCheck: false,
    fetchOptions: { headers: { "User-Agent": BROWSER_USER_AGENT } },
  });
}

/** Whether the base URL is one of the provider's own hosts (production): then requests go out unchanged. */
const isProviderHost = (baseUrl: string) => /(^|\.)yahoo\.com$/i.test(new URL(baseUrl).hostname);

export class DelayedFundamentalsClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 8000,
    private readonly deadline?: Deadline,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * The quoteSummary modules of `symbol` (absent modules are ones the provider has nothing for),
   * read field by field from the answer as it came: the library asks (cookie, crumb) and checks the
   * answer against its schema, each refusal a drift, but its reading is not used (it turns "31.2x"
   * into 31.2 without a word); the service's own schema keeps what is well-formed.
   */
  summary(symbol: string, modules: readonly QuoteSummaryModule[]): Promise<Read<Summary>> {
    return observed(DELAYED, this.clock, () =>
      this.call(async (client, fetch, captured) => {
        let refused: SchemaDrift[] = [];
        try {
          await client.quoteSummary(symbol, { modules: [...modules] }, { fetch });
        } catch (err) {
          const e = err as { name?: string; result?: unknown; errors?: LibraryIssue[] };
          if (e?.name !== "FailedYahooValidationError" || typeof e.result !== "object" || e.result === null) throw err;
          refused = libraryDrifts(DELAYED, e.errors ?? [], e.result);
        }
        const result = (answerOf(captured) as { quoteSummary?: { result?: unknown[] } }).quoteSummary?.result?.[0];
        if (typeof result !== "object" || result === null)
          throw new ProviderError(DELAYED, "bad_response", "a quoteSummary answer without a result");
        const read = readSummary(DELAYED, result);
        // The service's own reading first: where both refused a field, its report says more.
        return { value: read.summary, drifts: uniqueDrifts([...read.drifts, ...refused]) };
      }),
    );
  }

  /**
   * The statement items of one module and period type, with period ends in [from, to). The library
   * asks (it knows each module's list of items); the service reads the answer itself.
   */
  timeseries(
    symbol: string,
    module: StatementModule,
    type: PeriodType,
    from: Date,
    to: Date,
  ): Promise<Read<TimeseriesRow[]>> {
    return observed(DELAYED, this.clock, () =>
      this.call(async (client, fetch, captured) => {
        try {
          await client.fundamentalsTimeSeries(
            symbol,
            { period1: from, period2: to, type, module },
            { fetch, validateResult: false },
          );
        } catch (err) {
          // The library's own reading failed on an answer that came: the service's reading decides.
          if (captured.at(-1)?.status !== 200) throw err;
        }
        const body = answerOf(captured);
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
   * Runs one library call with our fetch; an answer "Invalid Crumb" (the provider expired the
   * session) is retried once with a new session, as the provider's own clients do.
   */
  private async call<T>(
    run: (client: Client, fetch: typeof globalThis.fetch, captured: Captured[]) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const statuses: number[] = [];
      const captured: Captured[] = [];
      try {
        return await run(newClient(jarFor(this.baseUrl, attempt > 0)), this.fetcher(statuses, captured), captured);
      } catch (err) {
        const failure = this.failureOf(err, statuses);
        if (failure.detail.startsWith("session refused") && attempt === 0) continue;
        throw failure;
      }
    }
  }

  /** The fetch the library is given: provider hosts mapped onto the base URL, each call under the deadline. */
  private fetcher(statuses: number[], captured: Captured[]): typeof globalThis.fetch {
    const rebase = !isProviderHost(this.baseUrl);
    return async (input, init) => {
      const original = new URL(input instanceof Request ? input.url : String(input));
      if (!/(^|\.)yahoo\.com$/i.test(original.hostname))
        throw new ProviderError(DELAYED, "bad_response", "the client asked for a host that is not the provider's");
      const target = rebase ? `${this.baseUrl}${original.pathname}${original.search}` : original.href;
      const ms = callTimeout(DELAYED, this.timeoutMs, this.deadline);
      let res: Response;
      try {
        res = await fetch(target, {
          method: init?.method ?? "GET",
          headers: init?.headers,
          body: init?.body,
          redirect: init?.redirect ?? "follow",
          signal: AbortSignal.timeout(ms),
        });
      } catch (err) {
        throw failureOf(DELAYED, err, ms, target, this.timeoutMs);
      }
      statuses.push(res.status);
      if (res.status === 429) throw new ProviderError(DELAYED, "rate_limited", "rate limit reached (HTTP 429)", true);
      if (res.status >= 500) throw new ProviderError(DELAYED, "unavailable", `HTTP ${res.status}`, true);
      // The body is read by the library under the same signal: a stalled body times out too.
      if (!/\/(timeseries|quoteSummary)\//.test(original.pathname)) return res;
      // The answers the service reads itself: their text is kept, the library gets a copy.
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        throw failureOf(DELAYED, err, ms, target, this.timeoutMs);
      }
      captured.push({ status: res.status, text });
      return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
    };
  }

  /** What a library failure means for the service. */
  private failureOf(err: unknown, statuses: number[]): ProviderError {
    if (err instanceof ProviderError) return err;
    const name = (err as { name?: string })?.name;
    if (name === "TimeoutError" || name === "AbortError") return failureOf(DELAYED, err, this.timeoutMs);
    const message = err instanceof Error ? err.message : String(err);
    // The library quotes the body it could not parse: the detail says what happened, not what was sent.
    if (message.startsWith("Response.ok where we expect JSON"))
      return new ProviderError(DELAYED, "bad_response", "HTTP 200 with a body that is not JSON");
    const last = statuses.at(-1);
    if (last === 401 || /crumb|cookie|unauthorized/i.test(message))
      // The library's text may quote an address with the crumb: it is taken out.
      return new ProviderError(DELAYED, "unavailable", `session refused (${redacted(message).slice(0, 120)})`);
    if (last === 404 || /not found/i.test(message))
      return new ProviderError(DELAYED, "not_found", message.slice(0, 200));
    if (name === "FailedYahooValidationError") {
      // Where the answer departs from the schema: what an operator needs to see the provider changed.
      const where = ((err as { errors?: { instancePath?: string; message?: string }[] }).errors ?? [])
        .slice(0, 3)
        .map((e) => `${e.instancePath ?? "?"} ${e.message ?? ""}`.trim())
        .join("; ");
      return new ProviderError(DELAYED, "bad_response", `an answer the client library's schema refuses (${where})`);
    }
    return new ProviderError(DELAYED, "bad_response", message.slice(0, 200));
  }
}

export type QuoteSummaryModule = NonNullable<Parameters<Client["quoteSummary"]>[1]>["modules"] extends
  | (infer M)[]
  | "all"
  | undefined
  ? M
  : never;
