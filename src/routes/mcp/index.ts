import type { OpenAPIHono } from "@hono/zod-openapi";
import { extractKey } from "../../auth";
import { ServiceError } from "../../domain/errors";
import type { McpServerBinding } from "../../domain/mcp-contract";
import type { AppEnv } from "../env";
import { type Dispatch, mcpCaller } from "./caller";

/** What a GET or DELETE of /mcp is told: the server keeps no session and opens no stream of its own. */
const POST_ONLY =
  "The MCP server is stateless: every message is a POST to /mcp, answered as JSON; there is no stream to open (GET) and no session to end (DELETE)";

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, served by the MCP Worker (workers/mcp)
 * behind this Worker's key check. The key check has passed and counted the message when the handler
 * runs; the MCP Worker gets the request and a caller whose one API request runs back here through
 * `dispatch` (the whole app), on the same key.
 */
export function registerMcp(app: OpenAPIHono<AppEnv>, dispatch: Dispatch, document: () => string): void {
  app.on(["GET", "DELETE"], "/mcp", (c) =>
    c.json({ error: "Method Not Allowed", message: POST_ONLY }, 405, { Allow: "POST" }),
  );
  app.post("/mcp", async (c) => {
    const server = c.env?.MCP_SERVER as unknown as McpServerBinding | undefined;
    if (!server) throw new ServiceError("UPSTREAM_UNAVAILABLE", "The MCP Worker (workers/mcp) is not bound here");
    const key = extractKey(c.req.raw.headers);
    const kind = c.get("keyKind");
    if (!key || kind === "none") throw new ServiceError("UNAUTHORIZED", "An API key is required");
    try {
      return await server.serve(c.req.raw, mcpCaller(c, key, kind, dispatch, document));
    } catch (err) {
      // The MCP Worker failed (an exception, its limits): the client gets a JSON-RPC error it can
      // retry on, and the message its own usage row (beside that of an API request it made).
      console.warn("MCP Worker failed", String(err));
      c.set("usageByMessageCall", false);
      return c.json(
        { jsonrpc: "2.0", id: null, error: { code: -32603, message: "The MCP server failed; a retry may succeed" } },
        503,
      );
    }
  });
}
