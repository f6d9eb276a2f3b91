import { WorkerEntrypoint } from "cloudflare:workers";
import type { McpCaller, McpServerBinding } from "../../../src/domain/mcp-contract";
import { serveMessage } from "./serve";

/**
 * The MCP Worker: `serve` answers one Streamable HTTP request of `POST /mcp` for the API Worker,
 * which has checked and counted the key. Reached by nothing else: its own fetch answers 404.
 */
export default class McpWorker extends WorkerEntrypoint implements McpServerBinding {
  override async fetch(): Promise<Response> {
    return Response.json(
      { error: "Not Found", message: "The MCP server answers at /mcp of the API, which checks the key" },
      { status: 404 },
    );
  }

  async serve(request: Request, caller: McpCaller): Promise<Response> {
    return serveMessage(request, caller);
  }
}
