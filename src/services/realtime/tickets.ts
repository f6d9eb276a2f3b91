import { RateLimitedError, ServiceError } from "../../domain/errors";
import { MAX_TICKETS_PER_KEY, TICKET_PARAM, TICKET_TTL_SECONDS } from "../../domain/realtime-ticket";
import type { Context } from "../../platform/context";
import { sealTicket } from "./ticket-seal";

export interface TicketAnswer {
  ticket: string;
  ticker: string;
  expires_at: string;
  /** The handshake's path and query, ready to append to the service's wss:// origin. */
  url: string;
}

/**
 * A single-use ticket for one socket on `ticker`, for the caller's key (kept by the ticker's object,
 * which spends it at the handshake). A read-only key gets one only for a streamed ticker, so that no
 * ticker object is made for it; a full-access key for any ticker (its socket starts the stream).
 */
export async function issueTicket(
  ctx: Pick<Context, "streams" | "caller" | "config">,
  ticker: string,
): Promise<TicketAnswer> {
  const { streams, caller } = ctx;
  if (!streams)
    throw new ServiceError(
      "UPSTREAM_UNAVAILABLE",
      "Realtime streaming is not configured (Durable Object bindings missing)",
    );
  if (!caller) throw new ServiceError("UNAUTHORIZED", "A ticket is issued for a key");
  if (caller.kind === "read_only" && !(await streams.isStreamed(ticker)))
    throw new ServiceError(
      "CONFLICT",
      `${ticker} is not streamed: a read-only key's ticket opens only a streamed ticker (a full-access key starts one, POST /realtime/subscribe)`,
    );
  const ticket = await sealTicket(ctx.config, ticker);
  if (!ticket)
    throw new ServiceError(
      "UPSTREAM_UNAVAILABLE",
      "Tickets are sealed with the service's keys, and none is configured",
    );
  const expiresAt = await streams.keepTicket(ticker, ticket, caller.kind, caller.fingerprint);
  if (!expiresAt)
    throw new RateLimitedError(
      `This key holds ${MAX_TICKETS_PER_KEY} unspent tickets of ${ticker}; spend them, or retry after ${TICKET_TTL_SECONDS} seconds`,
      TICKET_TTL_SECONDS,
    );
  return {
    ticket,
    ticker,
    expires_at: expiresAt,
    url: `/ws/realtime/${encodeURIComponent(ticker)}?${TICKET_PARAM}=${ticket}`,
  };
}
