import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import { ServiceError } from "../domain/errors";
import type { AppEnv } from "./env";

/**
 * Where the API reference's script is served: a static file of the docs Worker (workers/docs, built
 * by tools/build/docs-assets.ts) reached through the DOCS_ASSETS service binding, never a CDN, so
 * /docs renders offline and behind proxies that block CDNs.
 */
export const DOCS_SCRIPT_PATH = "/docs/assets/api-reference.js";

/** GET /docs: the interactive reference of /openapi.json, with no request leaving the service (no web fonts either). */
export function registerDocs(app: OpenAPIHono<AppEnv>): void {
  app.get(
    "/docs",
    Scalar({
      url: "/openapi.json",
      pageTitle: "Market data service API",
      cdn: DOCS_SCRIPT_PATH,
      withDefaultFonts: false,
    }),
  );
}

/**
 * GET /docs/assets/*: the reference's static files, forwarded to the docs Worker. Only this path
 * reaches it: a Worker with static assets of its own would route every request through the assets
 * router first. Where no docs Worker is bound (the test pool, a bare deploy), a 404 that says so.
 */
export function registerDocsAssets(app: OpenAPIHono<AppEnv>): void {
  app.get("/docs/assets/*", async (c) => {
    const docs = c.env?.DOCS_ASSETS;
    if (!docs) throw new ServiceError("NOT_FOUND", "The docs Worker (workers/docs) is not bound here");
    const res = await docs.fetch(c.req.raw);
    // The assets router answers an unknown file with an empty 404: ours says which.
    if (res.status === 404) throw new ServiceError("NOT_FOUND", `No docs file at ${c.req.path}`);
    return res;
  });
}
