import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { type Clock, systemClock } from "../../src/clock";
import { decodeFrames, encodeFrame, type Frame } from "../../src/providers/stream/protocol";
import { dailyHistory, SIM_SYMBOLS, type SimSymbol } from "./market-data";
import { type MinuteBar, MinutePath } from "./minute-path";

/**
 * The stream provider (TradingView chart WebSocket) simulator: the hello frame, `~m~` framing,
 * heartbeats that must be echoed (history is held back until they are), chart sessions with
 * `resolve_symbol` / `create_series` of daily bars, several frames per message, and faults on demand:
 * POST /__sandbox/faults {"symbol": "EURONEXT:MC" | "*", "mode": StreamFaultMode, "times"?: n}
 * and DELETE /__sandbox/faults. A 1-minute series (resolution "1") goes on streaming after its
 * history: a `du` update every `tickMs` (the current minute's bar, a new index when the minute
 * turns), continuing from the last daily close, with heartbeats every `heartbeatMs` that must be
 * echoed. POST /__sandbox/stream {"symbol": "NASDAQ:AAPL", "action": "drop" | "stall" | "resume"}
 * acts on the live streams of a symbol. A connection whose URL carries `connect_delay_ms=N` gets its
 * handshake answered N ms late, and `connect_delay_ms=hang` never (a provider that accepts the TCP
 * connection and then says nothing).
 */
/**
 * Per symbol (at `resolve_symbol`): symbol_error, protocol_error, drop, silent, malformed (a frame
 * whose payload is not JSON). For every connection (set on "*", taken at the WebSocket upgrade, where
 * no symbol is known yet): http_500 and http_429, the upgrade refused with that status.
 */
export type StreamFaultMode =
  | "symbol_error"
  | "protocol_error"
  | "drop"
  | "silent"
  | "malformed"
  | "http_500"
  | "http_429";

/** Modes answered at the upgrade, before any symbol: they apply to every connection. */
const UPGRADE_FAULTS: ReadonlySet<StreamFaultMode> = new Set(["http_500", "http_429"]);

export type StreamAction = "drop" | "stall" | "resume";

export interface TradingViewSim {
  /** ws:// address of the socket endpoint. */
  wsUrl: string;
  /** http:// address of the control endpoint. */
  url: string;
  /** Chart sessions opened so far (tests check the fallback really used this provider). */
  sessions(): number;
  close(): Promise<void>;
}

const BY_STREAM_SYMBOL: ReadonlyMap<string, SimSymbol> = new Map(
  [...SIM_SYMBOLS.values()].map((s) => [s.streamSymbol, s]),
);

/** How long a client may take to echo a heartbeat before the session is dropped, as the real server does. */
const HEARTBEAT_GRACE_MS = 3000;
const CHUNK = 1000;

const yesterday = (today: string) => new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const msg = (m: string, p: unknown[]) => encodeFrame({ m, p });
const streamCurrency = (c: string) => (c === "GBp" ? "GBX" : c);

function symbolInfo(s: SimSymbol) {
  const [exchange = "", name = ""] = s.streamSymbol.split(":");
  return {
    name,
    full_name: s.streamSymbol,
    pro_name: s.streamSymbol,
    description: s.name,
    exchange,
    listed_exchange: exchange,
    type: s.quoteType === "ETF" ? "fund" : "stock",
    currency_code: streamCurrency(s.currency),
    pricescale: 100,
    minmov: 1,
    session: s.openUtcHour > 12 ? "0930-1600" : "0900-1730",
    timezone: s.timezone,
    has_intraday: true,
    is_tradable: true,
  };
}

interface Fault {
  mode: StreamFaultMode;
  remaining: number;
}

/** A live 1-minute stream of one symbol on one connection. */
interface LiveStream {
  symbol: string;
  stalled: boolean;
  stop(): void;
}

export interface TradingViewSimOptions {
  port?: number;
  /** The sandbox's time: which daily bars exist, and the minute bars streamed. */
  clock?: Clock;
  tickMs?: number;
  heartbeatMs?: number;
  /** Called as each live update is sent (benchmarks time tick-to-client latency from here). */
  onUpdate?: (symbol: string, bar: MinuteBar) => void;
}

export async function startTradingViewSim(opts: TradingViewSimOptions = {}): Promise<TradingViewSim> {
  const clock = opts.clock ?? systemClock;
  const today = () => clock.today();
  const tickMs = opts.tickMs ?? 1000;
  const heartbeatMs = opts.heartbeatMs ?? 10_000;
  const faults = new Map<string, Fault>();
  const live = new Map<WebSocket, LiveStream>();
  let sessionCount = 0;

  const takeFault = (symbol: string): StreamFaultMode | undefined => {
    const key = faults.has(symbol) ? symbol : "*";
    const f = faults.get(key);
    if (!f) return undefined;
    f.remaining -= 1;
    if (f.remaining <= 0) faults.delete(key);
    return f.mode;
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://sim").pathname;
    if (path === "/__sandbox/stream" && req.method === "POST") {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as {
        symbol?: string;
        action: StreamAction;
      };
      let affected = 0;
      for (const [socket, stream] of live) {
        if (body.symbol && stream.symbol !== body.symbol) continue;
        affected += 1;
        if (body.action === "drop") socket.terminate();
        else stream.stalled = body.action === "stall";
      }
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ affected }));
    }
    if (path !== "/__sandbox/faults") {
      res.writeHead(404, { "content-type": "text/plain" });
      return res.end("Not Found");
    }
    if (req.method === "DELETE") {
      // ?symbol=X clears that symbol's fault only; without it, every fault.
      const only = new URL(req.url ?? "/", "http://sim").searchParams.get("symbol");
      if (only === null) faults.clear();
      else faults.delete(only);
    } else {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as {
        symbol?: string;
        mode: StreamFaultMode;
        times?: number;
      };
      faults.set(body.symbol ?? "*", { mode: body.mode, remaining: body.times ?? Number.POSITIVE_INFINITY });
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true }));
  });
  const wss = new WebSocketServer({ noServer: true });
  const held = new Set<Duplex>();
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://sim");
    if (url.pathname !== "/socket.io/websocket") return socket.destroy();
    const refusal = faults.get("*");
    if (refusal && UPGRADE_FAULTS.has(refusal.mode)) {
      takeFault("*");
      const status = refusal.mode === "http_500" ? "500 Internal Server Error" : "429 Too Many Requests";
      socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${status}`);
      return;
    }
    const upgrade = () => wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
    const delay = url.searchParams.get("connect_delay_ms");
    if (delay === "hang") {
      held.add(socket);
      socket.on("close", () => held.delete(socket));
      return;
    }
    if (delay) setTimeout(upgrade, Number(delay));
    else upgrade();
  });

  wss.on("connection", (ws: WebSocket) => {
    const now = clock.now().getTime();
    ws.send(
      encodeFrame(
        JSON.stringify({
          session_id: `sim_${now}`,
          timestamp: Math.floor(now / 1000),
          timestampMs: now,
          release: "sandbox",
          protocol: "json",
          javastudies: ["3.66"],
          auth_scheme_vsn: 2,
        }),
      ),
    );
    const symbols = new Map<string, string>(); // client symbol id -> EXCHANGE:SYM
    let heartbeat = 0;
    let pending: { expect: string; then: () => void; timer: NodeJS.Timeout } | undefined;

    const requireHeartbeat = (then: () => void) => {
      heartbeat += 1;
      const expect = `~h~${heartbeat}`;
      const timer = setTimeout(() => ws.close(1000, "heartbeat timeout"), HEARTBEAT_GRACE_MS);
      pending = { expect, then, timer };
      ws.send(encodeFrame(expect));
    };

    const series = (cs: string, seriesId: string, symbolId: string, count: number) => {
      const full = symbols.get(symbolId) ?? "";
      const s = BY_STREAM_SYMBOL.get(full);
      if (!s) return ws.send(msg("series_error", [cs, seriesId, "s1", "resolve error"]));
      const bars = dailyHistory(s.symbol, yesterday(today())).bars.filter((b) => !b.missing);
      const wanted = bars.slice(-Math.max(1, Math.min(count, 5000)));
      ws.send(msg("series_loading", [cs, seriesId, "s1"]));
      for (let i = 0; i < wanted.length; i += CHUNK) {
        const points = wanted
          .slice(i, i + CHUNK)
          .map((b, j) => ({ i: i + j, v: [b.time, b.open, b.high, b.low, b.close, b.volume] }));
        ws.send(
          msg("timescale_update", [
            cs,
            {
              [seriesId]: {
                node: "sim",
                s: points,
                ns: { d: "", indexes: [] },
                t: "s1",
                lbs: { bar_close_time: (wanted.at(-1)?.time ?? 0) + 86400 },
              },
            },
            { index: i, zoffset: 0, changes: [], marks: [], index_diff: [] },
          ]),
        );
      }
      ws.send(
        msg("series_completed", [cs, seriesId, "streaming", "s1", { rt_update_period: 5, data_completed: "limit" }]),
      );
    };

    /** History of the last minutes, then a `du` every tickMs; heartbeats keep being required. */
    const minuteSeries = (cs: string, seriesId: string, symbolId: string, count: number) => {
      const full = symbols.get(symbolId) ?? "";
      const s = BY_STREAM_SYMBOL.get(full);
      if (!s) return ws.send(msg("series_error", [cs, seriesId, "s1", "resolve error"]));
      const daily = dailyHistory(s.symbol, yesterday(today())).bars.filter((b) => !b.missing);
      const path = new MinutePath(full, daily.at(-1)?.close ?? 100);
      const history = path.history(clock.now().getTime(), Math.max(1, Math.min(count, 300)));
      ws.send(msg("series_loading", [cs, seriesId, "s1"]));
      ws.send(
        msg("timescale_update", [
          cs,
          {
            [seriesId]: {
              node: "sim",
              s: history.map((b, i) => ({ i, v: b })),
              ns: { d: "", indexes: [] },
              t: "s1",
              lbs: { bar_close_time: (history.at(-1)?.[0] ?? 0) + 60 },
            },
          },
          { index: 0, zoffset: 0, changes: [], marks: [], index_diff: [] },
        ]),
      );
      ws.send(
        msg("series_completed", [
          cs,
          seriesId,
          "streaming",
          "s1",
          { rt_update_period: tickMs / 1000, data_completed: "limit" },
        ]),
      );
      let index = history.length - 1;
      let lastMinute = history.at(-1)?.[0] ?? 0;
      const stream: LiveStream = { symbol: full, stalled: false, stop: () => undefined };
      const ticker = setInterval(() => {
        if (stream.stalled || ws.readyState !== ws.OPEN) return;
        const bar = path.update(clock.now().getTime());
        if (bar[0] !== lastMinute) {
          index += 1;
          lastMinute = bar[0];
        }
        ws.send(
          msg("du", [
            cs,
            {
              [seriesId]: {
                s: [{ i: index, v: bar }],
                ns: { d: "", indexes: "nochange" },
                t: "s1",
                lbs: { bar_close_time: bar[0] + 60 },
              },
            },
          ]),
        );
        opts.onUpdate?.(full, bar);
      }, tickMs);
      const beats = setInterval(() => {
        if (stream.stalled || ws.readyState !== ws.OPEN || pending) return;
        requireHeartbeat(() => undefined);
      }, heartbeatMs);
      stream.stop = () => {
        clearInterval(ticker);
        clearInterval(beats);
      };
      live.set(ws, stream);
    };

    const onMessage = (frame: Frame) => {
      if (frame.kind === "heartbeat") {
        if (pending && frame.raw === pending.expect) {
          clearTimeout(pending.timer);
          const then = pending.then;
          pending = undefined;
          then();
        }
        return;
      }
      if (frame.kind !== "message") return ws.send(msg("protocol_error", ["wrong data"]));
      const p = frame.params;
      if (frame.method === "resolve_symbol") {
        const [cs, symbolId, spec] = p as [string, string, string];
        let full = String(spec ?? "");
        if (full.startsWith("=")) full = (JSON.parse(full.slice(1)) as { symbol?: string }).symbol ?? "";
        sessionCount += 1;
        const fault = takeFault(full);
        if (fault === "drop") return ws.terminate();
        if (fault === "silent") return; // never answers: the client's deadline must fire
        if (fault === "malformed") return ws.send(encodeFrame('{"m":"symbol_resolved","p":[')); // cut short
        if (fault === "protocol_error") {
          ws.send(msg("protocol_error", ["wrong data"]));
          return ws.close(1000);
        }
        const s = BY_STREAM_SYMBOL.get(full);
        if (!s || fault === "symbol_error") return ws.send(msg("symbol_error", [cs, symbolId, "invalid symbol"]));
        symbols.set(symbolId, full);
        // Two frames in one message, as the real server batches them.
        ws.send(msg("symbol_resolved", [cs, symbolId, symbolInfo(s)]) + encodeFrame(`~h~${++heartbeat}`));
        return;
      }
      if (frame.method === "create_series") {
        const [cs, seriesId, , symbolId, resolution, count] = p as [string, string, string, string, string, number];
        if (!["1D", "D", "1"].includes(resolution))
          return ws.send(msg("series_error", [cs, seriesId, "s1", "resolution not served by the sandbox"]));
        if (!symbols.has(symbolId)) return; // the symbol failed to resolve; the real server stays silent too
        if (resolution === "1") requireHeartbeat(() => minuteSeries(cs, seriesId, symbolId, Number(count) || 10));
        else requireHeartbeat(() => series(cs, seriesId, symbolId, Number(count) || 300));
      }
    };

    ws.on("message", (data) => {
      for (const frame of decodeFrames(data.toString())) onMessage(frame);
    });
    ws.on("close", () => {
      if (pending) clearTimeout(pending.timer);
      live.get(ws)?.stop();
      live.delete(ws);
    });
  });

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    wsUrl: `ws://127.0.0.1:${port}/socket.io/websocket`,
    url: `http://127.0.0.1:${port}`,
    sessions: () => sessionCount,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        for (const s of held) s.destroy();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
