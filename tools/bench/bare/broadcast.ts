import { DurableObject } from "cloudflare:workers";

/**
 * The floor of `npm run bench:realtime`: one Durable Object holding every client through the
 * hibernation API, as the service's TickerStream does, that on each POST sends the body it was
 * given to every client and does nothing else (no provider, no parsing, no cache or database). Its
 * tick-to-client latency, measured beside the service's in the same run with the same clients, is
 * what the runtime and this machine cost whatever the service does.
 */
export class Broadcaster extends DurableObject {
  override async fetch(request: Request): Promise<Response> {
    if (request.method === "POST") {
      const text = await request.text();
      for (const ws of this.ctx.getWebSockets()) ws.send(text);
      return new Response(null, { status: 204 });
    }
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }
}

export default {
  fetch: (request, env) => env.BROADCASTER.get(env.BROADCASTER.idFromName("one")).fetch(request),
} satisfies ExportedHandler<{ BROADCASTER: DurableObjectNamespace<Broadcaster> }>;
