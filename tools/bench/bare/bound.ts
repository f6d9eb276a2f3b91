import { DurableObject } from "cloudflare:workers";
import app from "./worker";

/**
 * The bare Hono app with every binding of the service (its Durable Object classes, queues,
 * assets: `npm run bench:startup` starts it with the service's own wrangler.toml), so that
 * the service's ready time beyond this one is its global scope alone, not the runtime's set-up of
 * its bindings. The classes do nothing; they exist because the configuration names them.
 */
export class TickerStream extends DurableObject {}
export class StreamRegistry extends DurableObject {}
export class ProviderPacer extends DurableObject {}
export class KeyMeter extends DurableObject {}

export default app;
