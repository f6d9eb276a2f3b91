import { cacheTtls } from "../../cache";
import type { Deps } from "../../deps";
import { DELAYED } from "../../providers/names";
import { type ProviderOutcome, providerOutcomes } from "../../providers/outcomes";
import { providerStatus } from "../../providers/registry";
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

/** Liveness plus what the service can use right now; cheap enough to poll (no database round trip). */
export async function getHealth({ ctx }: { ctx: Deps }): Promise<Health> {
  const [providers, cacheUp, canary] = await Promise.all([
    providerStatus(),
    ctx.cache.ping(),
    latestCanaryReach(ctx, DELAYED).catch(() => null),
  ]);
  const cacheStatus =
    ctx.cache.backend === "memory"
      ? "memory (in-isolate LRU; Upstash not configured)"
      : cacheUp
        ? "connected"
        : "unreachable";
  const calls = providerOutcomes(ctx.clock.now().getTime());
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
