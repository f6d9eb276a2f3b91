import type { Clock } from "../clock";
import { ProviderError, type ProviderFailure, redacted } from "./errors";
import { NO_RESTS, type ProviderRests, type RestPolicy, restMessage } from "./rest";

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

/** What a client watches its calls with: the clock that dates them, and the rest policy of its work. */
export interface Watch {
  clock: Clock;
  restPolicy: RestPolicy;
}

/** A watch with resting off (a client built without a policy: a unit test, a tool). */
export const unrested = (clock: Clock): Watch => ({ clock, restPolicy: NO_RESTS });

/**
 * How the calls to each provider have gone, as one isolate saw them (one instance per isolate,
 * src/providers/isolate.ts), and the rests those calls start or end.
 */
export class ProviderOutcomes {
  private readonly outcomes = new Map<string, ProviderOutcome>();

  constructor(private readonly rests: ProviderRests) {}

  private entryOf(provider: string): ProviderOutcome {
    let e = this.outcomes.get(provider);
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
      this.outcomes.set(provider, e);
    }
    return e;
  }

  /**
   * Runs one provider call and keeps its outcome for `/health`: in memory, per isolate, so that
   * watching costs no I/O on the request path (the monitoring stores checks for the long view; an
   * isolate only knows its own calls). A call that was never made (the request's deadline had
   * passed) says nothing of the provider.
   */
  async observe<T>(provider: string, { clock, restPolicy }: Watch, call: () => Promise<T>): Promise<T> {
    // A resting provider is not asked: the call fails at once, saying why (not counted as a call).
    const rest = this.rests.restOf(provider, clock.now().getTime(), restPolicy);
    if (rest) throw new ProviderError(provider, "unavailable", restMessage(rest));
    try {
      const result = await call();
      const e = this.entryOf(provider);
      e.calls += 1;
      e.failing = false;
      e.last_success_at = clock.now().toISOString();
      this.rests.noteSuccess(provider, clock.now().getTime());
      return result;
    } catch (err) {
      const answered = err instanceof ProviderError && (err.failure === "not_found" || err.failure === "deadline");
      if (!(err instanceof ProviderError && err.failure === "deadline")) {
        const e = this.entryOf(provider);
        e.calls += 1;
        if (answered) {
          e.failing = false;
          e.last_success_at = clock.now().toISOString();
          this.rests.noteSuccess(provider, clock.now().getTime());
        } else {
          e.failures += 1;
          e.failing = true;
          e.last_failure_at = clock.now().toISOString();
          e.last_failure = err instanceof ProviderError ? err.failure : "unavailable";
          e.last_failure_reason =
            err instanceof ProviderError && OWN_WORDS.has(err.failure) ? redacted(err.detail).slice(0, 200) : null;
          // Failures of the provider itself (not of a symbol, an answer, a setting or a cut deadline) count toward a rest.
          if (err instanceof ProviderError && err.transient)
            this.rests.noteFailure(provider, e.last_failure_reason ?? err.failure, clock.now().getTime(), restPolicy);
        }
      }
      throw err;
    }
  }

  /** Every provider called since the isolate started, by name (copies), with the end of its rest at `now` if it rests. */
  all(now: number, restPolicy: RestPolicy): Record<string, ProviderOutcome & { resting_until: string | null }> {
    return Object.fromEntries(
      [...this.outcomes].map(([name, e]) => [
        name,
        { ...e, resting_until: this.rests.restOf(name, now, restPolicy)?.until ?? null },
      ]),
    );
  }
}
