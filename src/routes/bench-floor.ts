import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./env";
import { errorBody } from "./errors";

/** Largest floor body: above any EOD answer a benchmark compares it with. */
const MAX_BYTES = 4 * 1024 * 1024;
const bodies = new Map<number, string>();

/** A JSON string of exactly `bytes` bytes (`"xxx…"`), built once per size. */
function constantBody(bytes: number): string {
  let body = bodies.get(bytes);
  if (body === undefined) {
    body = `"${"x".repeat(Math.max(0, bytes - 2))}"`;
    bodies.set(bytes, body);
  }
  return body;
}

/**
 * GET /__bench/floor?bytes=N: a constant body of N bytes through the same middleware as every route
 * (key check, usage log), the floor that tools/bench compares cached answers with. Served only when
 * BENCH_ROUTES=true; otherwise it does not exist. Not part of the API document.
 */
export function registerBenchFloor(app: OpenAPIHono<AppEnv>) {
  app.get("/__bench/floor", (c) => {
    if (!c.get("deps").config.BENCH_ROUTES)
      return c.json(errorBody("NOT_FOUND", `No route for GET ${c.req.path}`), 404);
    const bytes = Number(c.req.query("bytes") ?? 1024);
    if (!Number.isInteger(bytes) || bytes < 2 || bytes > MAX_BYTES)
      return c.json(errorBody("BAD_REQUEST", `bytes must be an integer from 2 to ${MAX_BYTES}`), 400);
    return c.body(constantBody(bytes), 200, { "content-type": "application/json; charset=utf-8" });
  });
}
