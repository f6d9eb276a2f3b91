import type { Config } from "../env";
import type { Cache } from "../platform/cache";
import { cacheKeys } from "../platform/cache";

/**
 * A provider that keeps failing rests: after `afterFailures` failures in a row (an unreachable
 * host, a timeout, a 5xx, a 429) it is not asked for `seconds`, and every call in that time fails
 * at once with the reason; then it is asked again, and one more failure rests it again. What one
 * isolate learns reaches the others through the cache (`providers:resting`), so a burst does not
 * hit a dead provider from every isolate. An isolate reads the shared list at most every
 * SYNC_SECONDS, in the background of a request; a rest it starts is written after its answer.
 */

export interface RestPolicy {
  /** Failures in a row that rest a provider; 0 turns resting off. */
  afterFailures: number;
  seconds: number;
}

export interface Rest {
  provider: string;
  /** ISO 8601: when it began (a provider seen answering after that is not resting). */
  since: string;
  /** ISO 8601: when it is asked again. */
  until: string;
  failures: number;
  /** The last failure, in the service's words. */
  reason: string;
}

const SYNC_SECONDS = 10;

/** The configured policy (PROVIDER_REST_AFTER_FAILURES, PROVIDER_REST_SECONDS). */
export const restPolicyOf = (
  c: Pick<Config, "PROVIDER_REST_AFTER_FAILURES" | "PROVIDER_REST_SECONDS">,
): RestPolicy => ({
  afterFailures: c.PROVIDER_REST_AFTER_FAILURES,
  seconds: c.PROVIDER_REST_SECONDS,
});

/** Resting off: what a client built without a policy (a unit test, a tool) follows. */
export const NO_RESTS: RestPolicy = { afterFailures: 0, seconds: 60 };

const restingOn = (policy: RestPolicy) => policy.afterFailures > 0;

/** What a call that was not made says. */
export function restMessage(r: Rest): string {
  return `not asked: resting until ${r.until} after ${r.failures} failures in a row (last: ${r.reason})`;
}

/**
 * The rests one isolate knows of: its own streaks and rests, the rests other isolates shared, and
 * what it has yet to share. One instance per isolate (src/providers/isolate.ts); the policy comes
 * with each call, from the configuration of the work that makes it.
 */
export class ProviderRests {
  /** Failures in a row, and when the last came: a streak quiet for a rest's length has aged out. */
  private readonly streaks = new Map<string, { n: number; last: number }>();
  private readonly resting = new Map<string, Rest>();
  private readonly unpublished = new Map<string, Rest>();
  /** When a provider was last seen answering after a rest (epoch ms): older rests from the cache are over. */
  private readonly recovered = new Map<string, number>();
  /** Recoveries to write to the shared list (its entry goes). */
  private readonly cleared = new Set<string>();
  /** Providers whose rest a probe lifted (the canary): an answer ends the rest for every isolate. */
  private readonly probing = new Set<string>();
  private lastSync: number | null = null;

  /** The provider's rest at `now` (epoch ms), or null when it may be asked. */
  restOf(provider: string, now: number, policy: RestPolicy): Rest | null {
    if (!restingOn(policy)) return null;
    const r = this.resting.get(provider);
    return r && Date.parse(r.until) > now ? r : null;
  }

  /** An answer ends a streak, and a rest: here and, once written, for the other isolates. */
  noteSuccess(provider: string, now: number): void {
    this.streaks.delete(provider);
    const wasProbed = this.probing.delete(provider);
    if (!this.resting.has(provider) && !this.unpublished.has(provider) && !wasProbed) return;
    this.resting.delete(provider);
    this.unpublished.delete(provider);
    this.recovered.set(provider, now);
    this.cleared.add(provider);
  }

  /** Counts a failure; the one that completes a streak starts a rest (to be shared). */
  noteFailure(provider: string, reason: string, now: number, policy: RestPolicy): void {
    if (!restingOn(policy)) return;
    const probed = this.probing.delete(provider);
    const s = this.streaks.get(provider);
    const running = s && now - s.last <= policy.seconds * 1000 ? s.n : 0;
    // A probe that fails finds the provider still down: it rests again, whatever the streak's age.
    const n = probed ? Math.max(policy.afterFailures, running + 1) : running + 1;
    const rests = n >= policy.afterFailures;
    // A streak ages from its last failure, or from the end of the rest it caused: the first failure after a rest rests again.
    this.streaks.set(provider, { n, last: rests ? now + policy.seconds * 1000 : now });
    if (!rests) return;
    const rest = {
      provider,
      since: new Date(now).toISOString(),
      until: new Date(now + policy.seconds * 1000).toISOString(),
      failures: n,
      reason,
    };
    this.resting.set(provider, rest);
    this.unpublished.set(provider, rest);
  }

  /**
   * Lifts the rests of `providers` in this isolate for a probe (the canary asks a resting provider,
   * as the rest's purpose is to spare it requests, not to stop watching it): an answer ends the rest
   * for every isolate once shared; a failure rests it again at once (its streak is whole).
   */
  liftForProbe(providers: readonly string[]): void {
    for (const p of providers) {
      if (!this.resting.has(p)) continue;
      this.resting.delete(p);
      this.probing.add(p);
    }
  }

  /** Ends a probe: a provider the run never asked loses its probe mark (its next failure counts as usual). */
  endProbe(providers: readonly string[]): void {
    for (const p of providers) this.probing.delete(p);
  }

  /** Rests another isolate started, kept where they end later than what this isolate knows. */
  private adopt(shared: Record<string, Rest>, now: number): void {
    for (const r of Object.values(shared)) {
      const mine = this.resting.get(r.provider);
      const over = (this.recovered.get(r.provider) ?? Number.NEGATIVE_INFINITY) >= Date.parse(r.since);
      if (!over && Date.parse(r.until) > now && (!mine || Date.parse(mine.until) < Date.parse(r.until)))
        this.resting.set(r.provider, r);
    }
  }

  /**
   * Whether the shared rests are due to be read: resting on and the last read SYNC_SECONDS old (either
   * way: tests move the clock back). Checked before any work, so most requests schedule none.
   */
  pullDue(now: number, policy: RestPolicy): boolean {
    return restingOn(policy) && (this.lastSync === null || Math.abs(now - this.lastSync) >= SYNC_SECONDS * 1000);
  }

  /** Reads the shared rests (when due) and takes those of other isolates. */
  async pullRests(cache: Cache, now: number, policy: RestPolicy): Promise<void> {
    if (!this.pullDue(now, policy)) return;
    this.lastSync = now;
    this.adopt((await cache.get<Record<string, Rest>>(cacheKeys.providerRests())) ?? {}, now);
  }

  /**
   * Writes the rests this isolate started, and the ends of rests it saw, into the shared list; what
   * was written is forgotten only once the write is done (a failed write is tried again next time).
   * Two isolates writing at once may lose one's entry: its next failure writes it again.
   */
  async pushRests(cache: Cache, now: number): Promise<void> {
    if (!this.hasUnpublished()) return;
    const fresh = [...this.unpublished.values()];
    const ended = [...this.cleared];
    // A copy: what the cache answers may be frozen (the in-isolate cache shares its values).
    const shared = { ...((await cache.get<Record<string, Rest>>(cacheKeys.providerRests())) ?? {}) };
    for (const r of fresh) {
      const known = shared[r.provider];
      if (!known || Date.parse(known.until) < Date.parse(r.until)) shared[r.provider] = r;
    }
    for (const provider of ended) {
      const known = shared[provider];
      if (known && Date.parse(known.since) <= (this.recovered.get(provider) ?? 0)) delete shared[provider];
    }
    const live = Object.fromEntries(Object.entries(shared).filter(([, r]) => Date.parse(r.until) > now));
    const ttl = Math.max(1, ...Object.values(live).map((r) => Math.ceil((Date.parse(r.until) - now) / 1000)));
    await cache.set(cacheKeys.providerRests(), live, ttl);
    for (const r of fresh) if (this.unpublished.get(r.provider) === r) this.unpublished.delete(r.provider);
    for (const provider of ended) this.cleared.delete(provider);
  }

  /** Whether this isolate has rests (begun or ended) the others do not know of yet. */
  hasUnpublished(): boolean {
    return this.unpublished.size > 0 || this.cleared.size > 0;
  }
}
