import type { Bindings } from "../env";
import type { StreamRegistry } from "./stream-registry";
import type { TickerStream } from "./ticker-stream";

/** The Worker's bindings with the two Durable Object namespaces of the realtime area. */
export interface RealtimeEnv extends Bindings {
  TICKER_STREAM: DurableObjectNamespace<TickerStream>;
  STREAM_REGISTRY: DurableObjectNamespace<StreamRegistry>;
}
