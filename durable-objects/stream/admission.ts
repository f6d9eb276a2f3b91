import type { Clock } from "../../src/clock";
import type { ClientKind } from "../../src/domain/realtime";
import { TICKET_PARAM } from "../../src/domain/realtime-ticket";
import type { StreamClients } from "./clients";
import { SocketLeases } from "./socket-leases";
import { StreamTickets, type TicketHolder } from "./tickets";

/**
 * Who a ticker's object lets in, and under what: the holder of a handshake (the Worker's key check,
 * or a ticket sealed by the Worker, kept and spent here) and the socket lease of its key's KeyMeter, given back when the
 * socket closes.
 */
export class Admission {
  private readonly tickets: StreamTickets;
  private readonly leases: SocketLeases;

  constructor(
    storage: DurableObjectStorage,
    private readonly clock: Clock,
    meters: Env["KEY_METER"] | undefined,
    private readonly clients: StreamClients,
  ) {
    this.tickets = new StreamTickets(storage, clock);
    this.leases = new SocketLeases(meters);
  }

  /** The handshake's holder: the `kind` and `client` the Worker set, or a ticket's; null for a ticket unknown, spent or expired. */
  holderOf(url: URL): Promise<TicketHolder | null> | TicketHolder {
    const ticket = url.searchParams.get(TICKET_PARAM);
    if (ticket) return this.tickets.spend(ticket);
    const kind: ClientKind = url.searchParams.get("kind") === "full" ? "full" : "read_only";
    return { kind, client: `key:${url.searchParams.get("client") ?? ""}` };
  }

  /** Runs `admit` under a new lease of the holder's key (429 when the key holds its most sockets); the lease goes back unless a socket opened. */
  async underLease(
    holder: TicketHolder,
    ticker: string,
    admit: (lease: string) => Promise<Response>,
  ): Promise<Response> {
    const lease = crypto.randomUUID();
    const held = await this.leases.open(holder.client, lease, ticker, this.clock.now().getTime());
    if (held !== null) return this.clients.keyFull(held);
    let opened = false;
    try {
      const answer = await admit(lease);
      opened = answer.status === 101;
      return answer;
    } finally {
      // A refusal, or an admission that threw: no socket holds the lease.
      if (!opened) await this.leases.close(holder.client, lease);
    }
  }

  /** Keeps a sealed ticket of this ticker for a key: its expiry, or null when the key holds too many unspent. */
  async keep(ticket: string, kind: ClientKind, fingerprint: string): Promise<string | null> {
    const expiresAt = await this.tickets.keep(ticket, { kind, client: `key:${fingerprint}` });
    return expiresAt ? expiresAt.toISOString() : null;
  }

  /** Gives a closed socket's lease back to its key's meter (one not given back is found out by the meter). */
  async giveBack(ws: WebSocket): Promise<void> {
    const lease = this.clients.leaseOf(ws);
    const client = this.clients.clientOf(ws);
    if (lease && client) await this.leases.close(client, lease);
  }
}
