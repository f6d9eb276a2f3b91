/**
 * A ticker object's side of the keys' socket caps: each socket holds a lease of its key's KeyMeter
 * (named by the key's fingerprint, the `client` tag without its `key:`). A meter that cannot be
 * reached lets the socket in (logged): the per-ticker cap still holds.
 */
export class SocketLeases {
  constructor(private readonly meters: Env["KEY_METER"] | undefined) {}

  /** Takes a lease: null when taken (or no meter answered), else the sockets the key already holds. */
  async open(client: string, lease: string, ticker: string, nowMs: number): Promise<number | null> {
    const meter = this.meterOf(client);
    if (!meter) return null;
    try {
      return await meter.openSocket(client, lease, ticker, nowMs);
    } catch (err) {
      console.warn("socket lease not taken; socket let in", String(err));
      return null;
    }
  }

  async close(client: string, lease: string): Promise<void> {
    try {
      await this.meterOf(client)?.closeSocket(lease);
    } catch (err) {
      console.warn("socket lease not given back", String(err));
    }
  }

  private meterOf(client: string) {
    const ns = this.meters;
    return ns ? ns.get(ns.idFromName(client.replace(/^key:/, ""))) : null;
  }
}
