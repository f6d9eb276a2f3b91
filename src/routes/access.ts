import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Access } from "../auth";
import type { AppEnv } from "./env";

/**
 * The routes outside the OpenAPI document, and who may call them; every documented route says its
 * own access in its definition (`"x-access"`, which `withErrors` requires).
 */
const UNDOCUMENTED: Readonly<Record<string, Access>> = {
  "GET /openapi.json": "public",
  "GET /docs": "public",
  "GET /docs/assets/*": "public",
  // The example pages (workers/docs/public/examples): static files; they ask for a key themselves.
  "GET /examples/*": "public",
  // The WebSocket checks its key (or ticket) itself and refuses with close code 1008, as the spec asks.
  "GET /ws/realtime/:ticker": "public",
  // The benchmarks' constant-body route (BENCH_ROUTES): a key, as any read.
  "GET /__bench/floor": "any",
  // The MCP server (workers/mcp): any key; its tools are the documented routes, each checked as over HTTP.
  "POST /mcp": "any",
  "GET /mcp": "public",
  "DELETE /mcp": "public",
};

/** An OpenAPI path as Hono matches it (`/eod/{ticker}` → `/eod/:ticker`). */
export const honoPath = (path: string): string => path.replace(/\{(\w+)\}/g, ":$1");

/**
 * Who may call each route, by method and template as Hono matches it: read from the routes'
 * definitions once they are registered (`learn`). A route it does not know (none should be) needs
 * any key for a GET and a full-access key for anything else, so a new write is closed by default.
 */
export class RouteAccess {
  private readonly table = new Map<string, Access>(Object.entries(UNDOCUMENTED));

  /** Reads the access of every documented route of `app` (sub-apps mounted on it included). */
  learn(app: OpenAPIHono<AppEnv>): void {
    for (const d of app.openAPIRegistry.definitions) {
      if (d.type !== "route") continue;
      const access = (d.route as { "x-access"?: Access })["x-access"];
      if (access) this.table.set(`${d.route.method.toUpperCase()} ${honoPath(d.route.path)}`, access);
    }
  }

  of(method: string, template: string): Access {
    const m = method === "HEAD" ? "GET" : method;
    return this.table.get(`${m} ${template}`) ?? (m === "GET" ? "any" : "full");
  }
}
