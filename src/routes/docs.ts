import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { Context } from "hono";
import { ServiceError } from "../domain/errors";
import type { AppEnv } from "./env";

/**
 * Where the API reference's script is served: a static file of the docs Worker (workers/docs, built
 * by tools/build/docs-assets.ts) reached through the DOCS_ASSETS service binding, never a CDN, so
 * /docs renders offline and behind proxies that block CDNs.
 */
export const DOCS_SCRIPT_PATH = "/docs/assets/api-reference.js";

/**
 * The page's Content-Security-Policy: scripts only from the service, plus the page's one inline
 * script by its hash (the reference's set-up); requests only to the service; styles inline, since
 * the reference sets them at run time; no frames, forms, plugins or base URL.
 */
async function policyOf(html: string): Promise<string> {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(m[1] ?? ""));
    hashes.push(`'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
  }
  return [
    "default-src 'none'",
    `script-src 'self' ${hashes.join(" ")}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** GET /docs: the interactive reference of /openapi.json, with no request leaving the service (no web fonts either). */
export function registerDocs(app: OpenAPIHono<AppEnv>): void {
  app.get("/docs", async (c, next) => {
    await next();
    const html = await c.res.clone().text();
    c.res.headers.set("Content-Security-Policy", await policyOf(html));
  });
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

/** The examples' Content-Security-Policy: their own scripts and styles, requests (sockets too) to the service only. */
const EXAMPLE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * GET /docs/assets/*: the reference's static files, forwarded to the docs Worker. Only this path
 * reaches it: a Worker with static assets of its own would route every request through the assets
 * router first. Where no docs Worker is bound (the test pool, a bare deploy), a 404 that says so.
 */
export function registerDocsAssets(app: OpenAPIHono<AppEnv>): void {
  const forward = async (c: Context<AppEnv>) => {
    const docs = c.env?.DOCS_ASSETS;
    if (!docs) throw new ServiceError("NOT_FOUND", "The docs Worker (workers/docs) is not bound here");
    const res = await docs.fetch(c.req.raw);
    // The assets router answers an unknown file with an empty 404: ours says which.
    if (res.status === 404) throw new ServiceError("NOT_FOUND", `No docs file at ${c.req.path}`);
    return res;
  };
  app.get("/docs/assets/*", forward);
  // The examples' pages (/examples/realtime), each with a policy of its own files and the service only.
  app.get("/examples/*", async (c) => {
    const res = await forward(c);
    const page = new Response(res.body, res);
    page.headers.set("Content-Security-Policy", EXAMPLE_POLICY);
    return page;
  });
}
