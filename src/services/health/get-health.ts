import { DELAYED } from "../../domain/provider-names";
import { cacheTtls } from "../../platform/cache";
import type { Context } from "../../platform/context";
import { isolate } from "../../providers/isolate";
import type { ProviderOutcome } from "../../providers/outcomes";
import { providerStatus } from "../../providers/registry";
import { restPolicyOf } from "../../providers/rest";
import { latestCanaryReach } from "../monitoring/provider-health";

export const SERVICE_NAME = "market-data-service";

export interface Health {
  status: "ok" | "degraded";
  service: string;
  timestamp: string;
  delayed_provider_available: boolean;
  providers: {
    loaded: number;
    unavailable: string[];
    calls: Record<string, ProviderOutcome & { resting_until: string | null }>;
  };
  cache: { enabled: boolean; status: string; ttl_seconds: Record<string, number> };
}

/**
 * Whether the provider's latest outcome was an answer: the later of this isolate's latest call and
 * the latest canary run (which may have run in another isolate); true when neither says anything.
 */
export function latestReached(
  call: ProviderOutcome | undefined,
  canary: { at: string; answered: boolean } | null,
): boolean {
  const callAt = call ? (call.failing ? call.last_failure_at : call.last_success_at) : null;
  if (canary && (callAt === null || Date.parse(canary.at) > Date.parse(callAt))) return canary.answered;
  return call?.failing !== true;
}

/** What /health reads of the cache: whether it answers, and the delayed provider's latest canary run. */
interface CacheView {
  cacheUp: boolean;
  canary: { at: string; answered: boolean } | null;
}

/** How old the isolate's view of the cache may be before a request refreshes it (after answering). */
const VIEW_FRESH_MS = 5000;
/** The isolate's view, per cache (its address): when it was read, and a refresh under way. */
const views = new Map<string, { at: number; view: CacheView; refreshing: boolean }>();

const readView = async (ctx: Context): Promise<CacheView> => {
  const [cacheUp, canary] = await Promise.all([ctx.cache.ping(), latestCanaryReach(ctx, DELAYED).catch(() => null)]);
  return { cacheUp, canary };
};

/**
 * The cache's state as this isolate last read it: at most VIEW_FRESH_MS old on the answer's path,
 * older ones answered at once and read again after the answer, so a polled /health makes no round
 * trip (what it reports may be a few seconds old); the first /health of an isolate reads it.
 */
async function cacheView(ctx: Context, background: (work: Promise<void>) => void): Promise<CacheView> {
  const key = `${ctx.cache.backend}|${ctx.config.UPSTASH_REDIS_REST_URL ?? ""}`;
  const now = ctx.clock.now().getTime();
  const known = views.get(key);
  if (!known) {
    const view = await readView(ctx);
    views.set(key, { at: now, view, refreshing: false });
    return view;
  }
  // Either way round: tests move the clock back.
  if (Math.abs(now - known.at) > VIEW_FRESH_MS && !known.refreshing) {
    known.refreshing = true;
    background(
      readView(ctx)
        .then((view) => void views.set(key, { at: ctx.clock.now().getTime(), view, refreshing: false }))
        .catch(() => {
          known.refreshing = false;
        }),
    );
  }
  return known.view;
}

/**
 * Liveness plus what the service can use right now; cheap enough to poll: no database round trip,
 * and no cache round trip once the isolate has read the cache's state (see cacheView).
 */
export async function getHealth({
  ctx,
  background = (work) => void work,
}: {
  ctx: Context;
  /** Where work after the answer goes (the request's waitUntil). */
  background?: (work: Promise<void>) => void;
}): Promise<Health> {
  const [providers, { cacheUp, canary }] = await Promise.all([providerStatus(), cacheView(ctx, background)]);
  const cacheStatus =
    ctx.cache.backend === "memory"
      ? "memory (in-isolate LRU; Upstash not configured)"
      : cacheUp
        ? "connected"
        : "unreachable";
  const calls = isolate.outcomes.all(ctx.clock.now().getTime(), restPolicyOf(ctx.config));
  const providerFailing = Object.values(calls).some((o) => o.failing);
  return {
    // Degraded, not down: a failing provider's answers fall back or say so; the service still answers.
    status: cacheUp && !providerFailing ? "ok" : "degraded",
    service: SERVICE_NAME,
    // The spec asks for ISO 8601 without a zone; the value is UTC.
    timestamp: ctx.clock.now().toISOString().replace(/Z$/, ""),
    delayed_provider_available: providers.loaded.includes(DELAYED) && latestReached(calls[DELAYED], canary),
    providers: { loaded: providers.loaded.length, unavailable: providers.unavailable, calls },
    cache: { enabled: true, status: cacheStatus, ttl_seconds: { ...cacheTtls(ctx.config) } },
  };
}
