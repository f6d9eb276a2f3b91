import type { Deadline } from "../clock";

/** Why a provider call failed; services turn these into fallbacks or a clear error, never a 500. */
/** `deadline`: not asked at all, the request's deadline had passed (nothing is known of the provider). */
export type ProviderFailure = "not_found" | "rate_limited" | "timeout" | "deadline" | "unavailable" | "bad_response";

export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly failure: ProviderFailure,
    /** What went wrong, without the provider's name. */
    readonly detail: string,
  ) {
    super(`${provider}: ${detail}`);
    this.name = "ProviderError";
  }
}

/** Providers refuse bare clients: every provider call sends a browser's User-Agent. */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

/**
 * How long one provider call may take: its own timeout, cut to what is left of the request's
 * deadline. A deadline already passed is a timeout before anything is sent.
 */
export function callTimeout(provider: string, timeoutMs: number, deadline?: Deadline): number {
  const left = deadline ? deadline.remainingMs() : Number.POSITIVE_INFINITY;
  if (left <= 0) throw new ProviderError(provider, "deadline", "not asked: the request's deadline had passed");
  return Math.max(1, Math.min(timeoutMs, left));
}

/** Key-like query parameters, whose values never leave the service in a message. */
const KEY_PARAMS = /\b(token|api_token|apikey|api_key|apiKey|key)=[^&\s"']+/gi;

/** A message with any key-like parameter's value taken out (a transport error may quote the address). */
export const redacted = (message: string): string => message.replace(KEY_PARAMS, "$1=…");

/** A thrown transport error (abort, timeout, refused connection) as the provider's failure. */
export const failureOf = (provider: string, err: unknown, ms: number): ProviderError => {
  if (err instanceof ProviderError) return err;
  const name = (err as { name?: string })?.name;
  if (name === "TimeoutError" || name === "AbortError")
    return new ProviderError(provider, "timeout", `no complete answer within ${ms} ms`);
  return new ProviderError(
    provider,
    "unavailable",
    `request failed: ${redacted(err instanceof Error ? err.message : String(err))}`,
  );
};

/**
 * GET a text document with a deadline covering the headers and the whole body, mapping every
 * transport failure, a 429 and a 5xx to a ProviderError. Other statuses (a 404 for an unknown
 * symbol, say) are returned to the caller, which knows what the provider means by them.
 */
export async function getText(
  provider: string,
  url: string,
  opts: { timeoutMs: number; deadline?: Deadline; headers?: Record<string, string> },
): Promise<{ status: number; text: string }> {
  const ms = callTimeout(provider, opts.timeoutMs, opts.deadline);
  try {
    const res = await fetch(url, { headers: opts.headers, signal: AbortSignal.timeout(ms) });
    if (res.status === 429) throw new ProviderError(provider, "rate_limited", "rate limit reached (HTTP 429)");
    if (res.status >= 500) throw new ProviderError(provider, "unavailable", `HTTP ${res.status}`);
    // The body is read under the same deadline: a provider that sends headers and then stalls times out here.
    return { status: res.status, text: await res.text() };
  } catch (err) {
    throw failureOf(provider, err, ms);
  }
}

/** GET a JSON document (see getText); a body that is not JSON is a bad response. */
export async function getJson(
  provider: string,
  url: string,
  opts: { timeoutMs: number; deadline?: Deadline; headers?: Record<string, string> },
): Promise<{ status: number; body: unknown }> {
  const { status, text } = await getText(provider, url, opts);
  try {
    return { status, body: JSON.parse(text) as unknown };
  } catch {
    throw new ProviderError(provider, "bad_response", `HTTP ${status} with a body that is not JSON`);
  }
}
