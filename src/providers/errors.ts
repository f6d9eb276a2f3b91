/** Why a provider call failed; services turn these into fallbacks or a clear error, never a 500. */
export type ProviderFailure = "not_found" | "rate_limited" | "timeout" | "unavailable" | "bad_response";

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
export const BROWSER_USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

/**
 * GET a JSON document with a deadline, mapping transport failures to ProviderError.
 * A 404 is returned to the caller (providers answer unknown symbols with a JSON 404 body).
 */
export async function getJson(provider: string, url: string, opts: { timeoutMs: number; headers?: Record<string, string> }): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(url, { headers: opts.headers, signal: AbortSignal.timeout(opts.timeoutMs) });
  } catch (err) {
    const name = (err as { name?: string })?.name;
    if (name === "TimeoutError" || name === "AbortError") throw new ProviderError(provider, "timeout", `no answer within ${opts.timeoutMs} ms`);
    throw new ProviderError(provider, "unavailable", `request failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (res.status === 429) throw new ProviderError(provider, "rate_limited", "rate limit reached (HTTP 429)");
  if (res.status >= 500) throw new ProviderError(provider, "unavailable", `HTTP ${res.status}`);
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    throw new ProviderError(provider, "bad_response", `HTTP ${res.status} with a body that is not JSON`);
  }
}
