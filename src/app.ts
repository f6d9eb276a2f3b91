import { bodyLimit } from "hono/body-limit";
import type { DepsOptions } from "./deps";
import { MAX_IMPORT_BYTES } from "./domain/catalogue-import";
import { ServiceError } from "./domain/errors";
import { afterAnswer } from "./middleware/after-answer";
import { authenticate, QUERY_KEY_PARAM } from "./middleware/authenticate";
import { workspaceCors } from "./middleware/cors";
import { EDGE_CACHED_ROUTES, edgeCache, edgeCacheMounts } from "./middleware/edge-cache";
import { init } from "./middleware/init";
import { mcpLoopback } from "./middleware/mcp-loopback";
import { refreshGuard } from "./middleware/refresh-guard";
import { RouteAccess } from "./routes/access";
import { registerBenchFloor } from "./routes/bench-floor";
import { cacheApi } from "./routes/cache";
import { calendarApi } from "./routes/calendar";
import { catalogueApi } from "./routes/catalogue";
import { corporateActionsApi } from "./routes/corporate-actions";
import { databaseApi } from "./routes/database";
import { dcfApi } from "./routes/dcf";
import { registerDocs, registerDocsAssets } from "./routes/docs";
import { eodApi } from "./routes/eod";
import { renderError } from "./routes/errors";
import { etfApi } from "./routes/etf";
import { exchangesApi } from "./routes/exchanges";
import { fundamentalsApi } from "./routes/fundamentals";
import { fxApi } from "./routes/fx";
import { healthApi } from "./routes/health";
import { historyApi } from "./routes/history";
import { indicesApi } from "./routes/indices";
import { insiderApi } from "./routes/insider";
import { intradayApi } from "./routes/intraday";
import { keysApi } from "./routes/keys";
import { macroApi } from "./routes/macro";
import { registerMcp } from "./routes/mcp";
import { mcpToolTable } from "./routes/mcp/tool-table";
import { newsApi } from "./routes/news";
import { createApi } from "./routes/openapi";
import { realtimeApi } from "./routes/realtime";
import { registerRealtimeSocket } from "./routes/realtime/websocket";
import { searchApi } from "./routes/search";
import { stocksApi } from "./routes/stocks";
import { API_TAGS } from "./routes/tags";
import { technicalApi } from "./routes/technical";
import { workspaceApi } from "./routes/workspace";

export const API_VERSION = "0.1.0";

/** The largest request body read: the biggest legitimate one (20 names to ingest) is under 2 KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Builds the whole HTTP app: middleware, every area's sub-app, the OpenAPI document and the docs page.
 * `opts` reach `buildDeps` (tests pin the clock there).
 */
export function createApp(opts: DepsOptions = {}) {
  const app = createApi();

  app.use("*", init(opts));
  // Before the key check: a browser's preflight carries no key (spec Authentication 9).
  for (const path of ["/workspace/*", "/widgets.json", "/apps.json"]) app.use(path, workspaceCors);
  // Each middleware where it acts: what follows every answer (usage, drift, rests) in one, the key
  // check everywhere (public routes pass at once), the edge cache only on the routes it may serve.
  app.use("*", afterAnswer);
  // Who may call each route is read from the routes' definitions once they are all registered (below).
  const routeAccess = new RouteAccess();
  // Before the key check: a keyless local /mcp may be given the read-only key (MCP_LOOPBACK_OPEN).
  app.use("/mcp", mcpLoopback);
  app.use("*", authenticate(routeAccess));
  app.use("*", refreshGuard);
  for (const path of edgeCacheMounts(EDGE_CACHED_ROUTES)) app.use(path, edgeCache);
  // After the key check: only the bulk import (a full-access route) may send more than 64 KiB.
  const limited = (maxSize: number, what: string) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new ServiceError("PAYLOAD_TOO_LARGE", `${what} are at most ${maxSize} bytes`);
      },
    });
  const anyBody = limited(MAX_BODY_BYTES, "Request bodies");
  const importBody = limited(MAX_IMPORT_BYTES, "Import bodies");
  app.use("*", (c, next) =>
    (c.req.method === "POST" && c.req.path === "/assets/import" ? importBody : anyBody)(c, next),
  );

  app.route("/", healthApi);
  app.route("/", catalogueApi);
  app.route("/", exchangesApi);
  app.route("/", searchApi);
  app.route("/", eodApi);
  app.route("/", corporateActionsApi);
  app.route("/", intradayApi);
  app.route("/", calendarApi);
  app.route("/", cacheApi);
  app.route("/", databaseApi);
  app.route("/", historyApi);
  app.route("/", stocksApi);
  app.route("/", technicalApi);
  app.route("/", fundamentalsApi);
  app.route("/", insiderApi);
  app.route("/", etfApi);
  app.route("/", indicesApi);
  app.route("/", macroApi);
  app.route("/", fxApi);
  app.route("/", dcfApi);
  app.route("/", newsApi);
  app.route("/", realtimeApi);
  app.route("/", workspaceApi);
  app.route("/", keysApi);
  routeAccess.learn(app);

  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKeyHeader", {
    type: "apiKey",
    in: "header",
    name: "X-API-KEY",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "BearerKey", { type: "http", scheme: "bearer" });
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiTokenQuery", {
    type: "apiKey",
    in: "query",
    name: QUERY_KEY_PARAM,
    description:
      "A read-only key in a GET's query, for clients that cannot set headers (a spreadsheet's web query); a full-access key there is refused with 401",
  });
  const documentConfig = {
    openapi: "3.1.0",
    info: {
      title: "Market data service",
      version: API_VERSION,
      description: `Instruments and listings, end-of-day prices, technical indicators, fundamentals, valuation, macro rates, news and realtime quotes. Send a key as X-API-KEY or Authorization: Bearer.\n\n${mcpToolTable(app.openAPIRegistry.definitions)}`,
    },
    tags: API_TAGS,
  };
  app.doc31("/openapi.json", documentConfig);
  // The MCP Worker reads its tools from the document: built once per isolate, on the first MCP message.
  let document: string | undefined;
  registerMcp(
    app,
    (request, env, ctx) => app.fetch(request, env, ctx),
    () => {
      document ??= JSON.stringify(app.getOpenAPI31Document(documentConfig));
      return document;
    },
  );
  registerBenchFloor(app);
  registerRealtimeSocket(app);
  registerDocs(app);
  registerDocsAssets(app);

  app.notFound((c) => renderError(new ServiceError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`), c));
  app.onError(renderError);
  return app;
}
