import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { clientAddress, extractKey, socketQueryKey } from "../../auth";
import { NOT_STREAMING_CLOSE, notStreamingText, serverMessage } from "../../domain/realtime";
import { isTicketShape, SPENT_TICKET, TICKET_PARAM } from "../../domain/realtime-ticket";
import { refusedWith, spendRequest } from "../../platform/rate-limit";
import { verifyKey } from "../../services/keys/verify-key";
import { isSealedFor } from "../../services/realtime/ticket-seal";
import { closedSocket, upgraded } from "../../websocket-response";
import type { AppEnv } from "../env";
import { errorBody } from "../errors";
import { TickerParam } from "../params";

/** A bad key is refused inside the WebSocket protocol: accepted, then closed with 1008 (spec Authentication 8). */
const closedWith1008 = (reason: string): Response => closedSocket(1008, reason);

/** The ticket of a handshake's query, if it has one (POST /realtime/ticket). */
function ticketOf(url: string): string | undefined {
  if (!url.includes(`${TICKET_PARAM}=`)) return undefined;
  return new URL(url).searchParams.get(TICKET_PARAM) ?? undefined;
}

/** A read-only client of a ticker that is not streamed: `not_streaming` first, then a normal close with the reason. */
function notStreamedSocket(ticker: string, now: Date): Response {
  const pair = new WebSocketPair();
  const server = pair[1];
  server.accept();
  server.send(serverMessage("not_streaming", ticker, null, notStreamingText(ticker), now));
  server.close(NOT_STREAMING_CLOSE.code, NOT_STREAMING_CLOSE.reason);
  return upgraded(pair[0]);
}

const notConfigured = (c: Context<AppEnv>) =>
  c.json(
    errorBody("UPSTREAM_UNAVAILABLE", "Realtime streaming is not configured (Durable Object bindings missing)"),
    503,
  );

/**
 * WS /ws/realtime/{ticker}: a ticket (`ticket` in the query: its seal checked here, spent by the
 * ticker's object), else the key is checked in the handshake (headers, or `token`/`api_key`/`key`
 * in the query: a full-access key there only with WS_FULL_ACCESS_KEY_IN_URL, a stated departure from
 * spec Authentication 8), then the socket is handed to the ticker's stream. A full-access key starts the
 * stream; a read-only key is served what is streamed. Not in the OpenAPI document (not HTTP/JSON).
 */
export function registerRealtimeSocket(app: OpenAPIHono<AppEnv>) {
  app.get("/ws/realtime/:ticker", async (c) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket")
      return c.json(errorBody("BAD_REQUEST", "This route takes a WebSocket upgrade (Upgrade: websocket)"), 426);
    const deps = c.get("deps");
    // A ticket stands for a key: its shape, its ticker and its seal here, then the ticker's object spends it (1008 otherwise).
    const ticket = ticketOf(c.req.url);
    if (ticket !== undefined) {
      if (!isTicketShape(ticket)) return closedWith1008("a ticket is tkt_ and 48 hex digits (POST /realtime/ticket)");
      const ticker = TickerParam.safeParse(c.req.param("ticker"));
      if (!ticker.success) return closedWith1008("invalid ticker");
      // A ticket not sealed here for this ticker reaches no object (none is made for a made-up one).
      if (!(await isSealedFor(deps.config, ticker.data, ticket))) return closedWith1008(SPENT_TICKET);
      if (!deps.streams) return notConfigured(c);
      return deps.streams.connect(c.req.raw, ticker.data, { ticket });
    }
    // The key first: a request without one reads nothing else of the request.
    const inHeaders = extractKey(c.req.raw.headers);
    const key = inHeaders ?? socketQueryKey(new URL(c.req.url));
    const verified = await verifyKey(deps, key, clientAddress(c.req.raw.headers));
    if (!verified) return closedWith1008("missing or unknown API key");
    if ("refused" in verified) return closedWith1008(verified.refused.toLowerCase().replace(/^this /, ""));
    const identity = verified;
    if (inHeaders === undefined && identity.kind === "full" && !deps.config.WS_FULL_ACCESS_KEY_IN_URL)
      return closedWith1008("a full-access key is not taken from the URL: send it as a header, or use a read-only key");
    const ticker = TickerParam.safeParse(c.req.param("ticker"));
    if (!ticker.success) return closedWith1008("invalid ticker");
    c.set("keyKind", identity.kind);
    deps.caller = { kind: identity.kind, fingerprint: identity.fingerprint, keyId: identity.id, admin: identity.admin };
    // A handshake is a request of the key like any other (429 with Retry-After past the limit).
    const verdict = await spendRequest(
      deps.meters,
      identity.fingerprint,
      identity.rateLimit,
      deps.clock.now().getTime(),
    );
    if (verdict && !verdict.allowed) throw refusedWith(verdict);
    if (!deps.streams) return notConfigured(c);
    // A read-only key cannot start a stream: on a ticker that is not streamed it is told so here,
    // and no ticker object is created for it.
    if (identity.kind === "read_only") {
      const streamed = await deps.streams.isStreamed(ticker.data).catch((err: unknown) => {
        console.warn("stream registry not read", ticker.data, String(err));
        return null;
      });
      if (streamed === null)
        return c.json(errorBody("UPSTREAM_UNAVAILABLE", "The stream registry did not answer; try again shortly"), 503);
      if (!streamed) return notStreamedSocket(ticker.data, deps.clock.now());
    }
    return deps.streams.connect(c.req.raw, ticker.data, { kind: identity.kind, client: identity.fingerprint });
  });
}
