import type { Clock } from "../../src/clock";
import type { ClientKind } from "../../src/domain/realtime";
import { MAX_TICKETS_PER_KEY, TICKET_TTL_SECONDS } from "../../src/domain/realtime-ticket";
import { deleteKeys } from "../storage-keys";

const PREFIX = "ticket:";

/** Who a ticket lets in: the key kind and the key (`key:` and its fingerprint) it was issued to. */
export interface TicketHolder {
  kind: ClientKind;
  client: string;
}

interface StoredTicket extends TicketHolder {
  expiresAt: number;
}

/**
 * The tickets of one ticker's object, in its storage (a ticket outlives an idle object) and in
 * memory (read once per life of the object): kept for a key, at most MAX_TICKETS_PER_KEY unspent per
 * key, and spent by the one handshake that presents it within TICKET_TTL_SECONDS. An object handles
 * one event at a time between its storage calls, so two handshakes with one ticket cannot both find it.
 */
export class StreamTickets {
  #tickets: Map<string, StoredTicket> | null = null;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly clock: Clock,
  ) {}

  private async tickets(): Promise<Map<string, StoredTicket>> {
    this.#tickets ??= new Map(
      [...(await this.storage.list<StoredTicket>({ prefix: PREFIX }))].map(([name, t]) => [
        name.slice(PREFIX.length),
        t,
      ]),
    );
    return this.#tickets;
  }

  /**
   * Keeps a (sealed) ticket for `holder`: its expiry, or null when the key already holds
   * MAX_TICKETS_PER_KEY unspent here. The lapsed ones go meanwhile.
   */
  async keep(ticket: string, holder: TicketHolder): Promise<Date | null> {
    const now = this.clock.now().getTime();
    const tickets = await this.tickets();
    const lapsed = [...tickets].filter(([, t]) => t.expiresAt <= now).map(([name]) => name);
    for (const name of lapsed) tickets.delete(name);
    await deleteKeys(
      this.storage,
      lapsed.map((name) => `${PREFIX}${name}`),
    );
    let held = 0;
    for (const t of tickets.values()) if (t.client === holder.client) held += 1;
    if (held >= MAX_TICKETS_PER_KEY) return null;
    const stored = { kind: holder.kind, client: holder.client, expiresAt: now + TICKET_TTL_SECONDS * 1000 };
    tickets.set(ticket, stored);
    await this.storage.put<StoredTicket>(`${PREFIX}${ticket}`, stored);
    return new Date(stored.expiresAt);
  }

  /** Spends a ticket: its holder, or null for a ticket unknown here, spent or expired. */
  async spend(ticket: string): Promise<TicketHolder | null> {
    const tickets = await this.tickets();
    const stored = tickets.get(ticket);
    if (!stored) return null;
    tickets.delete(ticket);
    await this.storage.delete(`${PREFIX}${ticket}`);
    return stored.expiresAt > this.clock.now().getTime() ? { kind: stored.kind, client: stored.client } : null;
  }
}
