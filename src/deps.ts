import type { KeyKind } from "./auth";
import type { Cache } from "./cache";
import type { DbHandle } from "./db/client";
import type { Bindings, Config } from "./env";

/** What a request's handlers and services are given; built once per request by the init middleware. */
export interface Deps {
  config: Config;
  db: DbHandle;
  cache: Cache;
}

export type AppEnv = {
  Bindings: Bindings;
  Variables: {
    deps: Deps;
    keyKind: KeyKind | "none";
    requestId: string;
  };
};
