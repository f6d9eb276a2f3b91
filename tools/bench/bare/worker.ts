import { DurableObject } from "cloudflare:workers";
import { Hono } from "hono";

/**
 * The bare Hono app `npm run bench` measures beside the service: one route answering a constant body
 * of the asked size, no middleware. The service's floor route and its cached /eod are reported as
 * a ratio of this one, measured in the same run on the same machine. `/floor-limited` is the same
 * route after one call of a counter object, as the service's key check spends one call of the key's
 * KeyMeter on every keyed request: what that call costs here apart from the service's own work.
 */
const bodies = new Map<number, string>();

/** The least a per-key counter can be: one object, one number. */
export class Meter extends DurableObject {
  #used = 0;
  spend(): number {
    this.#used += 1;
    return this.#used;
  }
}

const app = new Hono<{ Bindings: { METER: DurableObjectNamespace<Meter> } }>();

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
  await c.env.METER.get(c.env.METER.idFromName("bench")).spend();
  return c.body(constantBody(c.req.query("bytes")), 200, json);
});

export default app;
