import type { Clock } from "../../src/clock";
import type { ClientKind } from "../../src/domain/realtime";
import { newTicket, TICKET_TTL_SECONDS } from "../../src/domain/realtime-ticket";

const PREFIX = "ticket:";
/** Tickets one ticker keeps unspent at most: past it, issuing waits for some to be spent or expire. */
export const MAX_LIVE_TICKETS = 10_000;

/** Who a ticket lets in: the key kind and the key (`key:` and its fingerprint) it was issued to. */
export interface TicketHolder {
  kind: ClientKind;
  client: string;
}

interface StoredTicket extends TicketHolder {
  expiresAt: number;
}

/**
 * The tickets of one ticker's object, in its storage (a ticket outlives an idle object): issued for
 * a key, spent by the one handshake that presents it within TICKET_TTL_SECONDS. An object handles
 * one event at a time, so two handshakes with one ticket cannot both find it.
 */
export class StreamTickets {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly clock: Clock,
  ) {}

  /** A new ticket for `holder` (null when MAX_LIVE_TICKETS are unspent); the expired ones are dropped meanwhile. */
  async issue(holder: TicketHolder): Promise<{ ticket: string; expiresAt: Date } | null> {
    const now = this.clock.now().getTime();
    const stored = await this.storage.list<StoredTicket>({ prefix: PREFIX });
    const expired = [...stored].filter(([, t]) => t.expiresAt <= now).map(([name]) => name);
    for (let i = 0; i < expired.length; i += 128) await this.storage.delete(expired.slice(i, i + 128));
    if (stored.size - expired.length >= MAX_LIVE_TICKETS) return null;
    const ticket = newTicket();
    const expiresAt = now + TICKET_TTL_SECONDS * 1000;
    await this.storage.put<StoredTicket>(`${PREFIX}${ticket}`, { kind: holder.kind, client: holder.client, expiresAt });
    return { ticket, expiresAt: new Date(expiresAt) };
  }

  /** Spends a ticket: its holder, or null for a ticket unknown here, spent or expired. */
  async spend(ticket: string): Promise<TicketHolder | null> {
    const name = `${PREFIX}${ticket}`;
    const stored = await this.storage.get<StoredTicket>(name);
    if (!stored) return null;
    await this.storage.delete(name);
    return stored.expiresAt > this.clock.now().getTime() ? { kind: stored.kind, client: stored.client } : null;
  }
}
