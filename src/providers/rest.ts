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

let policy: RestPolicy = { afterFailures: 0, seconds: 60 };
/** Failures in a row, and when the last came: a streak quiet for a rest's length has aged out. */
const streaks = new Map<string, { n: number; last: number }>();
const resting = new Map<string, Rest>();
const unpublished = new Map<string, Rest>();
/** When a provider was last seen answering after a rest (epoch ms): older rests from the cache are over. */
const recovered = new Map<string, number>();
/** Recoveries to write to the shared list (its entry goes). */
const cleared = new Set<string>();
/** Providers whose rest a probe lifted (the canary): an answer ends the rest for every isolate. */
const probing = new Set<string>();
let lastSync: number | null = null;

/** The policy of the configuration in force (set by buildDeps for each piece of work). */
export function setRestPolicy(p: RestPolicy): void {
  policy = p;
}

const restingOn = () => policy.afterFailures > 0;

/** The provider's rest at `now` (epoch ms), or null when it may be asked. */
export function restOf(provider: string, now: number): Rest | null {
  if (!restingOn()) return null;
  const r = resting.get(provider);
  return r && Date.parse(r.until) > now ? r : null;
}

/** What a call that was not made says. */
export function restMessage(r: Rest): string {
  return `not asked: resting until ${r.until} after ${r.failures} failures in a row (last: ${r.reason})`;
}

/** An answer ends a streak, and a rest: here and, once written, for the other isolates. */
export function noteSuccess(provider: string, now: number): void {
  streaks.delete(provider);
  const wasProbed = probing.delete(provider);
  if (!resting.has(provider) && !unpublished.has(provider) && !wasProbed) return;
  resting.delete(provider);
  unpublished.delete(provider);
  recovered.set(provider, now);
  cleared.add(provider);
}

/** Counts a failure; the one that completes a streak starts a rest (to be shared). */
export function noteFailure(provider: string, reason: string, now: number): void {
  if (!restingOn()) return;
  const probed = probing.delete(provider);
  const s = streaks.get(provider);
  const running = s && now - s.last <= policy.seconds * 1000 ? s.n : 0;
  // A probe that fails finds the provider still down: it rests again, whatever the streak's age.
  const n = probed ? Math.max(policy.afterFailures, running + 1) : running + 1;
  const rests = n >= policy.afterFailures;
  // A streak ages from its last failure, or from the end of the rest it caused: the first failure after a rest rests again.
  streaks.set(provider, { n, last: rests ? now + policy.seconds * 1000 : now });
  if (!rests) return;
  const rest = {
    provider,
    since: new Date(now).toISOString(),
    until: new Date(now + policy.seconds * 1000).toISOString(),
    failures: n,
    reason,
  };
  resting.set(provider, rest);
  unpublished.set(provider, rest);
}

/**
 * Lifts the rests of `providers` in this isolate for a probe (the canary asks a resting provider,
 * as the rest's purpose is to spare it requests, not to stop watching it): an answer ends the rest
 * for every isolate once shared; a failure rests it again at once (its streak is whole).
 */
export function liftForProbe(providers: readonly string[]): void {
  for (const p of providers) {
    if (!resting.has(p)) continue;
    resting.delete(p);
    probing.add(p);
  }
}

/** Ends a probe: a provider the run never asked loses its probe mark (its next failure counts as usual). */
export function endProbe(providers: readonly string[]): void {
  for (const p of providers) probing.delete(p);
}

/** Rests another isolate started, kept where they end later than what this isolate knows. */
function adopt(shared: Record<string, Rest>, now: number): void {
  for (const r of Object.values(shared)) {
    const mine = resting.get(r.provider);
    const over = (recovered.get(r.provider) ?? Number.NEGATIVE_INFINITY) >= Date.parse(r.since);
    if (!over && Date.parse(r.until) > now && (!mine || Date.parse(mine.until) < Date.parse(r.until)))
      resting.set(r.provider, r);
  }
}

/**
 * Whether the shared rests are due to be read: resting on and the last read SYNC_SECONDS old (either
 * way: tests move the clock back). Checked before any work, so most requests schedule none.
 */
export const pullDue = (now: number) =>
  restingOn() && (lastSync === null || Math.abs(now - lastSync) >= SYNC_SECONDS * 1000);

/** Reads the shared rests (when due) and takes those of other isolates. */
export async function pullRests(cache: Cache, now: number): Promise<void> {
  if (!pullDue(now)) return;
  lastSync = now;
  adopt((await cache.get<Record<string, Rest>>(cacheKeys.providerRests())) ?? {}, now);
}

/**
 * Writes the rests this isolate started, and the ends of rests it saw, into the shared list; what
 * was written is forgotten only once the write is done (a failed write is tried again next time).
 * Two isolates writing at once may lose one's entry: its next failure writes it again.
 */
export async function pushRests(cache: Cache, now: number): Promise<void> {
  if (!hasUnpublishedRests()) return;
  const fresh = [...unpublished.values()];
  const ended = [...cleared];
  // A copy: what the cache answers may be frozen (the in-isolate cache shares its values).
  const shared = { ...((await cache.get<Record<string, Rest>>(cacheKeys.providerRests())) ?? {}) };
  for (const r of fresh) {
    const known = shared[r.provider];
    if (!known || Date.parse(known.until) < Date.parse(r.until)) shared[r.provider] = r;
  }
  for (const provider of ended) {
    const known = shared[provider];
    if (known && Date.parse(known.since) <= (recovered.get(provider) ?? 0)) delete shared[provider];
  }
  const live = Object.fromEntries(Object.entries(shared).filter(([, r]) => Date.parse(r.until) > now));
  const ttl = Math.max(1, ...Object.values(live).map((r) => Math.ceil((Date.parse(r.until) - now) / 1000)));
  await cache.set(cacheKeys.providerRests(), live, ttl);
  for (const r of fresh) if (unpublished.get(r.provider) === r) unpublished.delete(r.provider);
  for (const provider of ended) cleared.delete(provider);
}

/** Whether this isolate has rests (begun or ended) the others do not know of yet. */
export const hasUnpublishedRests = () => unpublished.size > 0 || cleared.size > 0;
