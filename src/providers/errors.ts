/** Why a provider call failed; services turn these into fallbacks or a clear error, never a 500. */
/** `deadline`: not asked at all, the request's deadline had passed (nothing is known of the provider). */
export type ProviderFailure = "not_found" | "rate_limited" | "timeout" | "deadline" | "unavailable" | "bad_response";

export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly failure: ProviderFailure,
    /** What went wrong, without the provider's name. */
    readonly detail: string,
    /**
     * A failure of the provider itself (unreachable, no answer in its own time, a 5xx, a 429), which
     * counts toward a rest; not one of a symbol, an answer, a setting, or a deadline cut short.
     */
    readonly transient = false,
  ) {
    super(`${provider}: ${detail}`);
    this.name = "ProviderError";
  }
}

/** Key-like query parameters, whose values never leave the service in a message. */
const KEY_PARAMS = /\b(token|api_token|apikey|api_key|apiKey|key|crumb)=[^&\s"']+/gi;

/** A message with any key-like parameter's value taken out (a transport error may quote the address). */
export const redacted = (message: string): string => message.replace(KEY_PARAMS, "$1=…");
