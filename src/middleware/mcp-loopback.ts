import { createMiddleware } from "hono/factory";
import { extractKey } from "../auth";
import { ServiceError } from "../domain/errors";
import type { AppEnv } from "../routes/env";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether a URL or an Origin names this machine. */
function isLoopback(url: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * `MCP_LOOPBACK_OPEN` (local only, off by default): `/mcp` without a key is served as the settings'
 * first read-only key, but only to a request addressed to this machine (its Host and, when it has
 * one, its Origin both loopback), so that a web page whose name was rebound to 127.0.0.1 is refused
 * (403): the protection the MCP specification asks of local servers. What the protocol's own test
 * tools need (the conformance suite, which sends no key). Deployed, a request's Host is the
 * service's name, never a loopback one, so the setting opens nothing there.
 */
export const mcpLoopback = createMiddleware<AppEnv>(async (c, next) => {
  const config = c.get("deps").config;
  if (!config.MCP_LOOPBACK_OPEN) return next();
  const origin = c.req.header("origin");
  if (!isLoopback(c.req.url) || (origin !== undefined && !isLoopback(origin))) {
    throw new ServiceError(
      "FORBIDDEN",
      "With MCP_LOOPBACK_OPEN, /mcp answers only requests addressed to this machine (Host and Origin on loopback)",
    );
  }
  const key = config.SERVICE_READ_ONLY_API_KEYS[0];
  if (extractKey(c.req.raw.headers) === undefined && key) {
    const headers = new Headers(c.req.raw.headers);
    headers.set("x-api-key", key);
    c.req.raw = new Request(c.req.raw, { headers });
  }
  return next();
});
