import type { Clock } from "../clock";
import { ProviderError, type ProviderFailure, redacted } from "./errors";
import { noteFailure, noteSuccess, restMessage, restOf } from "./rest";

/** Failures whose detail the service words itself (transport, timeout, status), safe for a public route. */
const OWN_WORDS = new Set<ProviderFailure>(["unavailable", "timeout", "rate_limited"]);

/** How the calls to one provider have gone, as this isolate saw them. */
export interface ProviderOutcome {
  /** The last call failed (a provider that said "no such symbol" answered; it did not fail). */
  failing: boolean;
  calls: number;
  failures: number;
  last_success_at: string | null;
  last_failure_at: string | null;
  /**
   * The kind of the last failure (timeout, unavailable, rate_limited, bad_response): never the
   * provider's text, which /health (a public route) must not echo (a URL in it may carry a key).
   */
  last_failure: string | null;
  /**
   * What failed, when the service itself worded it: the host that could not be reached and why, a
   * timeout, an HTTP status. Null for failures whose detail quotes the provider.
   */
  last_failure_reason: string | null;
}

const outcomes = new Map<string, ProviderOutcome>();

function entryOf(provider: string): ProviderOutcome {
  let e = outcomes.get(provider);
  if (!e) {
    e = {
      failing: false,
      calls: 0,
      failures: 0,
      last_success_at: null,
      last_failure_at: null,
      last_failure: null,
      last_failure_reason: null,
    };
    outcomes.set(provider, e);
  }
  return e;
}

/**
 * Runs one provider call and keeps its outcome for `/health`: in memory, per isolate, so that
 * watching costs no I/O on the request path (the monitoring issue stores checks for the long view;
 * an isolate only knows its own calls). A call that was never made (the request's deadline had
 * passed) says nothing of the provider.
 * @example const bars = await observed(DELAYED, clock, () => fetchChart(symbol))
 */
export async function observed<T>(provider: string, clock: Clock, call: () => Promise<T>): Promise<T> {
  // A resting provider is not asked: the call fails at once, saying why (not counted as a call).
  const rest = restOf(provider, clock.now().getTime());
  if (rest) throw new ProviderError(provider, "unavailable", restMessage(rest));
  try {
    const result = await call();
    const e = entryOf(provider);
    e.calls += 1;
    e.failing = false;
    e.last_success_at = clock.now().toISOString();
    noteSuccess(provider, clock.now().getTime());
    return result;
  } catch (err) {
    const answered = err instanceof ProviderError && (err.failure === "not_found" || err.failure === "deadline");
    if (!(err instanceof ProviderError && err.failure === "deadline")) {
      const e = entryOf(provider);
      e.calls += 1;
      if (answered) {
        e.failing = false;
        e.last_success_at = clock.now().toISOString();
        noteSuccess(provider, clock.now().getTime());
      } else {
        e.failures += 1;
        e.failing = true;
        e.last_failure_at = clock.now().toISOString();
        e.last_failure = err instanceof ProviderError ? err.failure : "unavailable";
        e.last_failure_reason =
          err instanceof ProviderError && OWN_WORDS.has(err.failure) ? redacted(err.detail).slice(0, 200) : null;
        // Failures of the provider itself (not of a symbol, an answer, a setting or a cut deadline) count toward a rest.
        if (err instanceof ProviderError && err.transient)
          noteFailure(provider, e.last_failure_reason ?? err.failure, clock.now().getTime());
      }
    }
    throw err;
  }
}

/** Every provider called since the isolate started, by name (copies), with the end of its rest at `now` if it rests. */
export function providerOutcomes(now: number): Record<string, ProviderOutcome & { resting_until: string | null }> {
  return Object.fromEntries(
    [...outcomes].map(([name, e]) => [name, { ...e, resting_until: restOf(name, now)?.until ?? null }]),
  );
}
