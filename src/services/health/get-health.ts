import { cacheTtls } from "../../cache";
import type { Deps } from "../../deps";
import { DELAYED } from "../../providers/names";
import { type ProviderOutcome, providerOutcomes } from "../../providers/outcomes";
import { providerStatus } from "../../providers/registry";

export const SERVICE_NAME = "market-data-service";

export interface Health {
  status: "ok" | "degraded";
  service: string;
  timestamp: string;
  delayed_provider_available: boolean;
  providers: { loaded: number; unavailable: string[]; calls: Record<string, ProviderOutcome> };
  cache: { enabled: boolean; status: string; ttl_seconds: Record<string, number> };
}

/** Liveness plus what the service can use right now; cheap enough to poll (no database round trip). */
export async function getHealth({ ctx }: { ctx: Deps }): Promise<Health> {
  const [providers, cacheUp] = await Promise.all([providerStatus(), ctx.cache.ping()]);
  const cacheStatus =
    ctx.cache.backend === "memory"
      ? "memory (in-isolate LRU; Upstash not configured)"
      : cacheUp
        ? "connected"
        : "unreachable";
  const calls = providerOutcomes();
  const providerFailing = Object.values(calls).some((o) => o.failing);
  return {
    // Degraded, not down: a failing provider's answers fall back or say so; the service still answers.
    status: cacheUp && !providerFailing ? "ok" : "degraded",
    service: SERVICE_NAME,
    // The spec asks for ISO 8601 without a zone; the value is UTC.
    timestamp: ctx.clock.now().toISOString().replace(/Z$/, ""),
    // Loaded, and its latest call (in this isolate) did not fail; the canary's outcome joins this (issue 16).
    delayed_provider_available: providers.loaded.includes(DELAYED) && calls[DELAYED]?.failing !== true,
    providers: { loaded: providers.loaded.length, unavailable: providers.unavailable, calls },
    cache: { enabled: true, status: cacheStatus, ttl_seconds: { ...cacheTtls(ctx.config) } },
  };
}
