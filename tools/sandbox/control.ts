import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Faults of the transport that every HTTP simulator shows alike, whatever its provider: an answer
 * over what the service reads of one (16 MiB), and a redirect to another host.
 */
export type TransportFault = "oversized" | "redirect_foreign";

/** The faults every HTTP simulator shows, each in its provider's manner (and the transport's, alike). */
export type HttpFaultMode = "500" | "timeout" | "malformed" | "unknown" | "ratelimit" | "error200" | TransportFault;

/** What an `oversized` answer sends: a mebibyte over the service's cap, streamed without a length. */
const OVERSIZED_BYTES = 17 * 1024 * 1024;

/**
 * What every HTTP simulator of the sandbox offers its tests: faults on demand, set per key (a
 * symbol, an ISIN, a page) or for every request ("*"), each for a number of requests, and a count
 * of the requests served:
 * POST /__sandbox/faults {"symbol": key | "*", "mode", "times"?, "date"?}, DELETE /__sandbox/faults[?symbol=key]
 * (one key's fault, or every fault), GET /__sandbox/requests (DELETE resets the counts).
 */
export class SimulatorControl<Mode extends string> {
  private readonly faults = new Map<string, { mode: Mode; remaining: number; date?: string }>();
  private readonly requests = new Map<string, number>();
  /** Answers kept open on purpose (a timeout fault), ended when the simulator closes. */
  private readonly held = new Set<ServerResponse>();

  /** Never answers `res` (the client's timeout must fire); it is destroyed when the simulator closes. */
  hold(res: ServerResponse): void {
    this.held.add(res);
    res.on("close", () => this.held.delete(res));
  }

  /** Starts `server` on 127.0.0.1 (`port`, or a free one); `close` also ends the held answers. */
  async listen(server: Server, port = 0): Promise<{ url: string; close(): Promise<void> }> {
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    const bound = (server.address() as AddressInfo).port;
    return {
      url: `http://127.0.0.1:${bound}`,
      close: () =>
        new Promise<void>((resolve) => {
          for (const r of this.held) r.destroy();
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  /** Answers a transport fault (see TransportFault); false for any other fault, which is the simulator's own. */
  transport(fault: string | undefined, res: ServerResponse): boolean {
    if (fault === "redirect_foreign") {
      res.writeHead(302, { location: "http://provider-moved.invalid/elsewhere" });
      res.end();
      return true;
    }
    if (fault !== "oversized") return false;
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    // The service lets go past its cap: stop writing then.
    res.on("close", () => {
      sent = OVERSIZED_BYTES;
    });
    const pump = () => {
      while (sent < OVERSIZED_BYTES) {
        sent += chunk.length;
        if (!res.write(chunk)) {
          res.once("drain", pump);
          return;
        }
      }
      res.end();
    };
    pump();
    return true;
  }

  /** Counts a served request under a label such as `chart AAPL`. */
  count(label: string): void {
    this.requests.set(label, (this.requests.get(label) ?? 0) + 1);
  }

  /**
   * The fault a request for `key` takes (its own, else the one set for every request), if any.
   * `appliesTo` keeps a fault meant for other requests (another endpoint's) for them.
   */
  take(key: string, appliesTo: (mode: Mode) => boolean = () => true): Mode | undefined {
    return this.takeWithDate(key, appliesTo)?.mode;
  }

  /** The fault set for `key` itself, if any (a fault for every request does not apply). */
  takeOwn(key: string): Mode | undefined {
    const f = this.faults.get(key);
    if (!f) return undefined;
    f.remaining -= 1;
    if (f.remaining <= 0) this.faults.delete(key);
    return f.mode;
  }

  /** `take`, with the session a fault named (`"date"` in its body: where a price glitch goes). */
  takeWithDate(
    key: string,
    appliesTo: (mode: Mode) => boolean = () => true,
  ): { mode: Mode; date?: string } | undefined {
    const own = this.faults.get(key);
    const f = own ?? this.faults.get("*");
    if (!f || !appliesTo(f.mode)) return undefined;
    f.remaining -= 1;
    if (f.remaining <= 0) this.faults.delete(own ? key : "*");
    return { mode: f.mode, date: f.date };
  }

  /** Answers the control endpoints; false when the request is not one of them. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    if (url.pathname === "/__sandbox/faults") {
      if (req.method === "DELETE") {
        const only = url.searchParams.get("symbol");
        if (only === null) this.faults.clear();
        else this.faults.delete(only);
        sendJson(res, 200, { cleared: only ?? "*" });
        return true;
      }
      const body = JSON.parse((await readBody(req)) || "{}") as {
        symbol?: string;
        mode: Mode;
        times?: number;
        date?: string;
      };
      this.faults.set(body.symbol ?? "*", {
        mode: body.mode,
        remaining: body.times ?? Number.POSITIVE_INFINITY,
        ...(body.date ? { date: body.date } : {}),
      });
      sendJson(res, 200, { set: body });
      return true;
    }
    if (url.pathname === "/__sandbox/requests") {
      if (req.method === "DELETE") this.requests.clear();
      sendJson(res, 200, Object.fromEntries(this.requests));
      return true;
    }
    return false;
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = "application/json"): void {
  res.writeHead(status, { "content-type": contentType });
  res.end(JSON.stringify(body));
}
