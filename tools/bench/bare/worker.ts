import { Hono } from "hono";

/**
 * The bare Hono app `npm run bench` measures beside the service: one route answering a constant body
 * of the asked size, no middleware. The service's floor route and its cached /eod are reported as
 * a ratio of this one, measured in the same run on the same machine. `/floor-limited` is the same
 * route after one call of the rate-limiting binding the service spends on every keyed request: what
 * that binding costs here (Miniflare's simulation of it) apart from the service's own work.
 */
const bodies = new Map<number, string>();
const app = new Hono<{ Bindings: { KEY_RATE_LIMITER: RateLimit } }>();

function constantBody(query: string | undefined): string {
  const bytes = Math.min(4 * 1024 * 1024, Math.max(2, Number(query ?? 1024) || 1024));
  let body = bodies.get(bytes);
  if (body === undefined) {
    body = `"${"x".repeat(bytes - 2)}"`;
    bodies.set(bytes, body);
  }
  return body;
}

const json = { "content-type": "application/json; charset=utf-8" };

app.get("/floor", (c) => c.body(constantBody(c.req.query("bytes")), 200, json));

app.get("/floor-limited", async (c) => {
  const { success } = await c.env.KEY_RATE_LIMITER.limit({ key: "bench" });
  return c.body(constantBody(c.req.query("bytes")), success ? 200 : 429, json);
});

export default app;
