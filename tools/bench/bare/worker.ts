import { Hono } from "hono";

/**
 * The bare Hono app `npm run bench` measures beside the service: one route answering a constant body
 * of the asked size, no middleware. The service's floor route and its cached /eod are reported as
 * a ratio of this one, measured in the same run on the same machine.
 */
const bodies = new Map<number, string>();
const app = new Hono();

app.get("/floor", (c) => {
  const bytes = Math.min(4 * 1024 * 1024, Math.max(2, Number(c.req.query("bytes") ?? 1024) || 1024));
  let body = bodies.get(bytes);
  if (body === undefined) {
    body = `"${"x".repeat(bytes - 2)}"`;
    bodies.set(bytes, body);
  }
  return c.body(body, 200, { "content-type": "application/json; charset=utf-8" });
});

export default app;
