import type { CookieJar } from "./delayed/cookies";
import { ProviderOutcomes, type Watch } from "./outcomes";
import { ProviderRests } from "./rest";

/**
 * What the provider layer keeps across the requests of one Worker isolate, declared here once and
 * nowhere else: an isolate serves many requests, one after another and some at once, and starts
 * with all of these empty. Everything else a provider client holds lives and dies with its work
 * (the one other memo of an isolate in this layer is which provider modules loaded, providers/registry.ts).
 * - `rests`: failure streaks and rests (begun here, or read from the other isolates' shared list);
 * - `outcomes`: how the calls to each provider have gone, for /health;
 * - `edgarPace`: when this isolate may next ask EDGAR (its fair-access limit is per client);
 * - `delayedSessions`: the delayed provider's cookie and crumb sessions, by base URL.
 */
export const isolate = {
  rests: new ProviderRests(),
  outcomes: undefined as unknown as ProviderOutcomes,
  edgarPace: { nextSlot: 0 },
  delayedSessions: new Map<string, DelayedSession>(),
};
isolate.outcomes = new ProviderOutcomes(isolate.rests);

/**
 * A delayed-provider session's cookies and crumb, kept once its handshake is complete (it costs two
 * calls). Each handshake fills a jar of its own, so requests opening sessions at once never mix one's
 * cookie with another's crumb.
 */
export interface DelayedSession {
  jar: CookieJar;
  crumb: string;
}

/**
 * Runs one provider call, keeping its outcome for /health and honouring the provider's rest.
 * @example const bars = await observed(DELAYED, this.watch, () => fetchChart(symbol))
 */
export function observed<T>(provider: string, watch: Watch, call: () => Promise<T>): Promise<T> {
  return isolate.outcomes.observe(provider, watch, call);
}
