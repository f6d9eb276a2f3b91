import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { MAX_TICKETS_PER_KEY, TICKET_TTL_SECONDS } from "../../domain/realtime-ticket";
import { issueTicket } from "../../services/realtime/tickets";
import type { AppEnv } from "../env";
import { keyed, withErrors } from "../openapi";
import { TickerParam } from "../params";

const TicketSchema = z
  .object({
    ticket: z.string().openapi({ example: "tkt_9f0c1d2e4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3b2" }),
    ticker: z.string().openapi({ example: "AAPL" }),
    expires_at: z
      .string()
      .openapi({ description: `When the ticket lapses unspent (${TICKET_TTL_SECONDS} s after issue)` }),
    url: z.string().openapi({
      description: "The handshake's path and query: wss:// and the service's host before it",
      example: "/ws/realtime/AAPL?ticket=tkt_9f0c1d2e4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3b2",
    }),
  })
  .openapi("RealtimeTicket");

const route = createRoute(
  withErrors(
    {
      method: "post",
      path: "/realtime/ticket",
      "x-access": "any",
      tags: ["Realtime"],
      summary: "A single-use ticket to open one WebSocket without a key in its URL",
      description: `For browsers, which cannot set a WebSocket's headers: the ticket goes in the handshake's query (\`?ticket=\`) instead of a key. It opens one socket on the ticker it names, within ${TICKET_TTL_SECONDS} seconds, as the key that asked for it (its kind, its socket cap); the ticker's object spends it at the handshake, so a ticket read from a log is worth nothing. A read-only key gets a ticket only for a streamed ticker (409 otherwise); a full-access key's socket starts the stream as its handshake would.`,
      security: keyed,
      // For the generated nets (test/hardening): each call mints a ticket, at most this many unspent
      // per key and ticker; past them a 429, as the same calls one after another would get.
      "x-counted": MAX_TICKETS_PER_KEY,
      request: {
        body: {
          required: true,
          content: {
            "application/json": {
              schema: z
                .object({ ticker: TickerParam })
                .strict()
                .openapi("TicketRequest", { example: { ticker: "AAPL" } }),
            },
          },
        },
      },
      responses: {
        200: { description: "The ticket", content: { "application/json": { schema: TicketSchema } } },
      },
    },
    [409],
  ),
);

export function registerTicket(api: OpenAPIHono<AppEnv>) {
  return api.openapi(route, async (c) => c.json(await issueTicket(c.get("deps"), c.req.valid("json").ticker), 200));
}
