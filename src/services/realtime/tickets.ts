import { RateLimitedError, ServiceError } from "../../domain/errors";
import { TICKET_PARAM, TICKET_TTL_SECONDS } from "../../domain/realtime-ticket";
import type { Context } from "../../platform/context";

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
export async function issueTicket(ctx: Pick<Context, "streams" | "caller">, ticker: string): Promise<TicketAnswer> {
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
  const issued = await streams.issueTicket(ticker, caller.kind, caller.fingerprint);
  if (!issued)
    throw new RateLimitedError(
      `${ticker} holds too many unspent tickets; retry after ${TICKET_TTL_SECONDS} seconds`,
      TICKET_TTL_SECONDS,
    );
  return {
    ticket: issued.ticket,
    ticker,
    expires_at: issued.expiresAt,
    url: `/ws/realtime/${encodeURIComponent(ticker)}?${TICKET_PARAM}=${issued.ticket}`,
  };
}
