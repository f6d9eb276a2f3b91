import type { KeyKind } from "../auth";
import type { Deps } from "../deps";
import type { Bindings } from "../env";

/** The Hono environment of every route and middleware: the bindings, and what the init middleware sets. */
export type AppEnv = {
  Bindings: Bindings;
  Variables: {
    deps: Deps;
    keyKind: KeyKind | "none";
    requestId: string;
    /** Set when an MCP message made its API request: that request's usage row stands for the message. */
    usageByMessageCall: boolean;
  };
};
