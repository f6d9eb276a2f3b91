import type { Deadline } from "../clock";
import { ProviderError, redacted } from "./errors";

/**
 * The HTTP client of the providers: one GET under a timeout cut to the work's deadline, and every
 * transport failure, 429 and 5xx as the provider's ProviderError.
 */

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

/** The host (and port) of an address, for a message; null for one that is not an address. */
function hostOf(url: string): string | null {
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}

/**
 * Why a connection failed, in words a user can act on. The runtimes' own texts say little (workerd:
 * "internal error; reference = …"; Node: "fetch failed" with the system's code in `cause`).
 */
export function causeOf(err: unknown): string {
  const e = err as { message?: unknown; cause?: { code?: unknown; message?: unknown } } | null;
  const text = `${String(e?.message ?? err)} ${String(e?.cause?.code ?? "")} ${String(e?.cause?.message ?? "")}`;
  if (/ECONNREFUSED|refused/i.test(text)) return "connection refused";
  if (/ENOTFOUND|EAI_AGAIN|getaddrinfo|DNS|name (not )?resol/i.test(text)) return "the host name could not be resolved";
  if (/ECONNRESET|EPIPE|connection (was )?(lost|reset|closed)/i.test(text)) return "the connection was dropped";
  if (/ENETUNREACH|EHOSTUNREACH|unreachable/i.test(text)) return "the network is unreachable";
  if (/certificate|TLS|SSL/i.test(text)) return "the secure connection could not be established";
  if (/internal error; reference/i.test(text))
    return "no connection could be made: offline, blocked, or the host is down (the runtime gives no detail)";
  return redacted(String(e?.message ?? err)).slice(0, 160);
}

/**
 * A thrown transport error (abort, timeout, refused connection) as the provider's failure; with
 * the address, the message names the host that could not be reached and why.
 */
export const failureOf = (provider: string, err: unknown, ms: number, url?: string, ownMs?: number): ProviderError => {
  if (err instanceof ProviderError) return err;
  const name = (err as { name?: string })?.name;
  // A timeout cut short by the request's deadline says nothing of the provider.
  if (name === "TimeoutError" || name === "AbortError")
    return new ProviderError(
      provider,
      "timeout",
      `no complete answer within ${ms} ms`,
      ownMs === undefined || ms >= ownMs,
    );
  const host = url ? hostOf(url) : null;
  return new ProviderError(
    provider,
    "unavailable",
    host ? `could not reach ${host} (${causeOf(err)})` : `request failed: ${causeOf(err)}`,
    true,
  );
};

/**
 * The largest answer read from a provider: the biggest legitimate one (an EDGAR company's facts, a
 * ten-year chart) is a few megabytes. A larger one is refused as it streams in, so that a broken or
 * hostile provider cannot take the isolate's memory (128 MB).
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * A provider's answer body as text, read up to `maxBytes`: beyond it (announced or streamed) the
 * body is let go and the answer is a bad response.
 */
export async function readCapped(provider: string, res: Response, maxBytes = MAX_ANSWER_BYTES): Promise<string> {
  const tooBig = () => new ProviderError(provider, "bad_response", `an answer over ${maxBytes} bytes`);
  if (Number(res.headers.get("content-length") ?? 0) > maxBytes) {
    await res.body?.cancel();
    throw tooBig();
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
    if (read > maxBytes) {
      await reader.cancel();
      throw tooBig();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** Redirects followed at most, each to the same host. */
const MAX_REDIRECTS = 3;

/**
 * GET `url`, following a redirect only to the host asked (a moved path, http up to https; never down
 * to http, nor to another port unless to https): a provider
 * that sends the service to another host is a bad response, so that a configured address cannot be
 * turned into a request to anywhere.
 */
export async function fetchOnHost(
  provider: string,
  url: string,
  headers: Record<string, string> | undefined,
  signal: AbortSignal,
): Promise<Response> {
  const first = new URL(url);
  let target = url;
  for (let hop = 0; ; hop++) {
    const res = await fetch(target, { headers, signal, redirect: "manual" });
    if (res.status < 300 || res.status >= 400 || !res.headers.has("location")) return res;
    await res.body?.cancel();
    const next = new URL(res.headers.get("location") ?? "", target);
    // The same host and port, and never from https down to http (a provider key may ride in the URL).
    const sameHost = next.host === first.host || (next.hostname === first.hostname && next.protocol === "https:");
    if (!sameHost || (first.protocol === "https:" && next.protocol !== "https:"))
      throw new ProviderError(provider, "bad_response", `a redirect to another host (${next.host}, ${next.protocol})`);
    if (hop >= MAX_REDIRECTS) throw new ProviderError(provider, "bad_response", `more than ${MAX_REDIRECTS} redirects`);
    target = next.href;
  }
}

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
    const res = await fetchOnHost(provider, url, opts.headers, AbortSignal.timeout(ms));
    if (res.status === 429) throw new ProviderError(provider, "rate_limited", "rate limit reached (HTTP 429)", true);
    if (res.status >= 500) throw new ProviderError(provider, "unavailable", `HTTP ${res.status}`, true);
    // The body is read under the same deadline: a provider that sends headers and then stalls times out here.
    return { status: res.status, text: await readCapped(provider, res) };
  } catch (err) {
    throw failureOf(provider, err, ms, url, opts.timeoutMs);
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
