import type { Clock } from "../../clock";
import type { SchemaDrift } from "../../domain/drift";
import { STREAM } from "../../domain/provider-names";
import { ProviderError } from "../errors";
import { collectBars, decimalsOf, openSocket } from "./client";
import { decodeFrames, encodeFrame, message, sessionId } from "./protocol";

/** A 1-minute bar as the stream provider updates it; prices rounded to the symbol's price scale. */
export interface LiveBar {
  /** Minute start, epoch seconds. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  /** The currency the provider quotes the symbol in (GBX for a London pence line); null when it did not say. */
  currency: string | null;
}

export interface LiveHandlers {
  onBar(bar: LiveBar): void;
  /** The provider refused the symbol (or the protocol): reconnecting would not help. */
  onFatal(error: ProviderError): void;
  /** The connection ended; a reconnect may help. */
  onClosed(reason: string): void;
  /** A bar of another shape than the protocol's was left out (reported as schema_drift). */
  onDrift?(drifts: SchemaDrift[]): void;
  /** The provider knows the symbol (`symbol_resolved`): its series will follow. */
  onResolved?(): void;
}

const SERIES = "sds_1";
const SYMBOL_REF = "sds_sym_1";

/**
 * A live 1-minute series of one symbol on the stream provider: history frames and `du` updates
 * both arrive as bars (the newest is the forming minute), heartbeats are echoed. One socket per
 * subscription, closed by `close()`.
 */
export class LiveSeries {
  private decimals = 4;
  private currency: string | null = null;
  private closed = false;
  /** When the provider last sent anything (a bar, a heartbeat): a silent connection is a stalled one. */
  lastFrameAt: number;

  private constructor(
    private readonly ws: WebSocket,
    readonly symbol: string,
    private readonly handlers: LiveHandlers,
    private readonly clock: Clock,
  ) {
    this.lastFrameAt = clock.now().getTime();
  }

  /** Connects (the handshake within `connectTimeoutMs`) and asks for the symbol's 1-minute series. */
  static async open(
    wsUrl: string,
    symbol: string,
    handlers: LiveHandlers,
    opts: { connectTimeoutMs: number; clock: Clock },
  ): Promise<LiveSeries> {
    const ws = await openSocket(wsUrl, opts.connectTimeoutMs);
    const live = new LiveSeries(ws, symbol, handlers, opts.clock);
    live.start();
    return live;
  }

  private start(): void {
    const cs = sessionId("cs");
    this.ws.addEventListener("message", (ev) => {
      // A connection given up (stalled, replaced, stopped) says nothing more: a late frame of it
      // must not tick, nor end the stream that replaced it.
      if (this.closed) return;
      const text = typeof ev.data === "string" ? ev.data : "";
      this.lastFrameAt = this.clock.now().getTime();
      for (const frame of decodeFrames(text)) {
        if (frame.kind === "heartbeat") this.send(encodeFrame(frame.raw));
        else if (frame.kind === "message") this.onMessage(frame.method, frame.params);
      }
    });
    this.ws.addEventListener("close", (ev) => this.end(`closed by the provider (${ev.code})`));
    this.ws.addEventListener("error", () => this.end("connection error"));
    this.send(message("set_auth_token", ["unauthorized_user_token"]));
    this.send(message("chart_create_session", [cs, ""]));
    this.send(message("switch_timezone", [cs, "Etc/UTC"]));
    this.send(
      message("resolve_symbol", [
        cs,
        SYMBOL_REF,
        `=${JSON.stringify({ symbol: this.symbol, adjustment: "splits", session: "regular" })}`,
      ]),
    );
    this.send(message("create_series", [cs, SERIES, "s1", SYMBOL_REF, "1", 1, ""]));
  }

  private onMessage(method: string, params: unknown[]): void {
    if (method === "symbol_resolved") {
      const info = params[2] as { pricescale?: unknown; currency_code?: unknown } | undefined;
      this.decimals = decimalsOf(info?.pricescale);
      this.currency = typeof info?.currency_code === "string" ? info.currency_code : null;
      this.handlers.onResolved?.();
      return;
    }
    if (method === "timescale_update" || method === "du") {
      const bars = new Map<number, number[]>();
      const drifts = collectBars(params, bars, SERIES);
      if (drifts.length) this.handlers.onDrift?.(drifts);
      const newest = [...bars.entries()].sort((a, b) => a[0] - b[0]).at(-1);
      if (newest) this.emit(newest[0], newest[1]);
      return;
    }
    if (
      method === "symbol_error" ||
      method === "series_error" ||
      method === "critical_error" ||
      method === "protocol_error"
    ) {
      const fatal = new ProviderError(
        STREAM,
        method === "symbol_error" ? "not_found" : "bad_response",
        `${method} for ${this.symbol}: ${params.slice(2).map(String).join(" ") || String(params[0] ?? "")}`,
      );
      this.closed = true;
      this.handlers.onFatal(fatal);
      this.close();
    }
  }

  private emit(time: number, v: number[]): void {
    const r = (x: number | undefined) => Number((x ?? 0).toFixed(this.decimals));
    this.handlers.onBar({
      time,
      open: r(v[1]),
      high: r(v[2]),
      low: r(v[3]),
      close: r(v[4]),
      volume: Math.round(v[5] ?? 0),
      currency: this.currency,
    });
  }

  private send(text: string): void {
    try {
      this.ws.send(text);
    } catch {
      this.end("send failed");
    }
  }

  private end(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.handlers.onClosed(reason);
  }

  /** Closed by either side (or refused): it will send nothing more. */
  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
    try {
      this.ws.close(1000, "unsubscribed");
    } catch {
      // already closed
    }
  }
}
