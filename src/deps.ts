import type { KeyKind } from "./auth";
import type { Cache } from "./cache";
import type { DbHandle } from "./db/client";
import type { Bindings, Config } from "./env";
import type { DelayedProviderClient } from "./providers/delayed/client";
import type { HistoryProvider } from "./providers/history";
import type { StreamDirectory } from "./services/realtime/directory";

/** What a request's handlers and services are given; built once per request by the init middleware. */
export interface Deps {
  config: Config;
  db: DbHandle;
  cache: Cache;
  providers: Providers;
  /** Realtime streams; null without the Durable Object bindings. */
  streams: StreamDirectory | null;
}

/** The external sources a request may call, aimed at their configured base URLs. */
export interface Providers {
  delayed: DelayedProviderClient;
  stream: HistoryProvider;
}

export type AppEnv = {
  Bindings: Bindings;
  Variables: {
    deps: Deps;
    keyKind: KeyKind | "none";
    requestId: string;
  };
};
