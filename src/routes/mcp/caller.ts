import type { Context } from "hono";
import type { KeyKind } from "../../auth";
import type { ApiAnswer, ApiCall, McpCaller } from "../../domain/mcp-contract";
import type { Bindings } from "../../env";
import type { AppEnv } from "../env";
import { countedByMessage } from "./counted-calls";

/** The whole app, as the MCP Worker's calls reach it: the same middleware and routes as over HTTP. */
export type Dispatch = (
  request: Request,
  env: Bindings,
  ctx: Context<AppEnv>["executionCtx"],
) => Response | Promise<Response>;

/** A path the API may be asked for: one absolute path of this service, never another host. */
const API_PATH = /^\/(?!\/)[^\s?#\\]*$/;

/**
 * The caller handed to the MCP Worker with one `POST /mcp`: the key's kind, the OpenAPI document,
 * and one API request on the same key. That request is the message's one count: its usage row
 * replaces the message's (`usageByMessageCall`), and the key's rate is not spent twice.
 */
export function mcpCaller(
  c: Context<AppEnv>,
  key: string,
  keyKind: KeyKind,
  dispatch: Dispatch,
  document: () => string,
): McpCaller {
  const origin = new URL(c.req.url).origin;
  let used = false;
  return {
    keyKind,
    document: async () => document(),
    call: async (call: ApiCall): Promise<ApiAnswer> => {
      if (used) throw new Error("An MCP message makes at most one API request");
      if (!API_PATH.test(call.path)) throw new Error(`Not a path of this service: ${call.path.slice(0, 80)}`);
      used = true;
      c.set("usageByMessageCall", true);
      const url = new URL(`${origin}${call.path}`);
      // Dot segments resolved away would answer another route than the tool's.
      if (url.pathname !== call.path) throw new Error(`Not a path of this service: ${call.path.slice(0, 80)}`);
      for (const [name, value] of call.query) url.searchParams.append(name, value);
      const headers = new Headers({ "x-api-key": key, accept: "application/json" });
      // The client's address: a lookup of an unseen key is bounded per address, as over HTTP.
      const address = c.req.header("cf-connecting-ip");
      if (address) headers.set("cf-connecting-ip", address);
      if (call.body !== undefined) headers.set("content-type", "application/json");
      const request = countedByMessage(new Request(url, { method: call.method, headers, body: call.body }));
      const res = await dispatch(request, c.env, c.executionCtx);
      return {
        status: res.status,
        contentType: res.headers.get("content-type") ?? "",
        body: await res.text(),
        retryAfter: res.headers.get("retry-after"),
      };
    },
  };
}
