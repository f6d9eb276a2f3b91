import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { AppEnv } from "./env";

/**
 * Where the API reference's script is served: a static asset of the Worker itself (wrangler.toml
 * `[assets]`, built by tools/build/docs-assets.ts), never a CDN, so /docs renders offline and
 * behind proxies that block CDNs.
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
