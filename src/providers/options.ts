import type { Clock, Deadline } from "../clock";
import { systemClock } from "../clock";
import { type DriftSink, NO_DRIFT_SINK } from "../domain/drift";
import type { Watch } from "./outcomes";
import { type Pace, unpaced } from "./pace";
import { NO_RESTS, type RestPolicy } from "./rest";

/** What every provider client is built with: where the provider answers, and the work's bounds. */
export interface ClientOptions {
  /** The provider's configured base URL (the sandbox's simulator in development and tests). */
  baseUrl: string;
  /** One call's timeout; the work's deadline may cut it shorter. */
  timeoutMs?: number;
  /** The work's deadline: no call outlives it. */
  deadline?: Deadline;
  /** Dates the outcomes /health keeps. */
  clock?: Clock;
  /** Where the schema drift read around goes (the work's journal). */
  drifts?: DriftSink;
  /** Waits for the provider's turn before each request (the catalogue refresh's pacing). */
  pace?: Pace;
  /** When the provider rests after failing (PROVIDER_REST_*); resting off without one. */
  restPolicy?: RestPolicy;
}

/** A call's timeout when the options name none. */
export const DEFAULT_TIMEOUT_MS = 8000;

/** The options with their defaults: no deadline, the system clock, no drift sink, no pacing. */
export function withDefaults(
  o: ClientOptions,
): Required<Omit<ClientOptions, "deadline">> & Pick<ClientOptions, "deadline"> {
  return {
    baseUrl: o.baseUrl,
    timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    deadline: o.deadline,
    clock: o.clock ?? systemClock,
    drifts: o.drifts ?? NO_DRIFT_SINK,
    pace: o.pace ?? unpaced,
    restPolicy: o.restPolicy ?? NO_RESTS,
  };
}

/**
 * What every provider client holds of its options, resolved once: its address, one call's timeout,
 * the work's deadline, clock, drift sink and pacing, and how its calls are watched (for /health,
 * and the rests of its work's policy).
 */
export abstract class ProviderClient {
  protected readonly baseUrl: string;
  protected readonly timeoutMs: number;
  protected readonly deadline: Deadline | undefined;
  protected readonly clock: Clock;
  protected readonly drifts: DriftSink;
  protected readonly pace: Pace;
  protected readonly watch: Watch;

  constructor(o: ClientOptions) {
    const c = withDefaults(o);
    this.baseUrl = c.baseUrl;
    this.timeoutMs = c.timeoutMs;
    this.deadline = c.deadline;
    this.clock = c.clock;
    this.drifts = c.drifts;
    this.pace = c.pace;
    this.watch = { clock: c.clock, restPolicy: c.restPolicy };
  }
}
