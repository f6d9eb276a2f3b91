import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Access } from "../../auth";
import { MCP_ANSWER_BYTES } from "../../domain/mcp-contract";
import type { AppEnv } from "../env";

interface ToolRoute {
  method: string;
  path: string;
  summary?: string;
  "x-mcp-tool"?: string;
  "x-access"?: Access;
}

/**
 * The MCP tools as the API reference lists them (in the document's description, so that /docs shows
 * them): each is a documented route that names its tool (`"x-mcp-tool"`), the one place a tool is
 * declared; the MCP Worker reads the same declarations from the document.
 */
export function mcpToolTable(definitions: OpenAPIHono<AppEnv>["openAPIRegistry"]["definitions"]): string {
  const rows: string[] = [];
  for (const d of definitions) {
    if (d.type !== "route") continue;
    const r = d.route as unknown as ToolRoute;
    const tool = r["x-mcp-tool"];
    if (!tool) continue;
    const keys = r["x-access"] === "full" ? "full-access" : "any";
    rows.push(`| \`${tool}\` | \`${r.method.toUpperCase()} ${r.path}\` | ${keys} | ${r.summary ?? ""} |`);
  }
  rows.sort();
  return [
    "## MCP server for AI agents",
    "",
    "`POST /mcp` speaks the Model Context Protocol (Streamable HTTP, stateless, JSON answers) with the same keys as every route (X-API-KEY or Authorization: Bearer). Each tool below is the route beside it: the same parameters (path and query at the top level, a JSON body under `body`), checks, caches and errors; a read-only key is shown only the tools a read-only key may call. Each message counts once against the key's rate and in its usage, a tool call under its route.",
    "",
    `A tool's answer is the route's JSON as structured content with a one-line summary; past ${MCP_ANSWER_BYTES.toLocaleString("en-US")} bytes its longest list is cut and \`cut\` says how many rows were left out and the arguments that ask for the rest. Resources: the indicator list, the exchanges, an instrument by ISIN, a venue's calendar. Prompt: \`value_company\` (a valuation with the DCF tools). See docs/mcp.md.`,
    "",
    "| Tool | Route | Keys | What it answers |",
    "|---|---|---|---|",
    ...rows,
  ].join("\n");
}
