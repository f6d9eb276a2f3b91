// The realtime example's client: ticket, socket, ticks, and a new ticket after every drop.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { key: "", ticker: "", socket: null, ticks: 0, connections: 0, stopped: true, retryMs: 500 };

function log(text) {
  const item = document.createElement("li");
  item.textContent = `${new Date().toISOString().slice(11, 19)} ${text}`;
  $("log").prepend(item);
}

function show(status) {
  $("status").textContent = status;
  document.body.dataset.state = status.split(" ")[0];
}

/** A single-use ticket for the ticker, asked with the key in a header (never in a URL). */
async function ticket() {
  const res = await fetch("/realtime/ticket", {
    method: "POST",
    headers: { "X-API-KEY": state.key, "content-type": "application/json" },
    body: JSON.stringify({ ticker: state.ticker }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.status} ${body.message ?? body.error}`);
  return body;
}

async function connect() {
  if (state.stopped) return;
  show("connecting");
  let issued;
  try {
    issued = await ticket();
  } catch (err) {
    log(`no ticket: ${err.message}`);
    return retry();
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${issued.url}`);
  state.socket = socket;
  socket.addEventListener("open", () => {
    state.connections += 1;
    state.retryMs = 500;
    $("connections").textContent = String(state.connections);
    $("drop").disabled = false;
    show("open");
    log(`socket ${state.connections} open on ${issued.ticker}`);
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if ((message.type === "tick" || message.type === "snapshot") && message.data) {
      state.ticks += 1;
      $("ticks").textContent = String(state.ticks);
      $("price").textContent = `${message.data.close} ${message.data.currency ?? ""}`.trim();
      $("minute").textContent = message.data.timestamp;
    } else if (message.type === "not_streaming" || message.type === "error") {
      log(`${message.type}: ${message.error}`);
    }
  });
  socket.addEventListener("close", (event) => {
    if (state.socket === socket) state.socket = null;
    $("drop").disabled = true;
    log(`socket closed (${event.code}${event.reason ? `: ${event.reason}` : ""})`);
    retry();
  });
}

/** Waits, longer after each failure (up to 10 s), then connects again with a new ticket. */
function retry() {
  if (state.stopped) return;
  show(`reconnecting in ${state.retryMs} ms`);
  setTimeout(connect, state.retryMs);
  state.retryMs = Math.min(10_000, state.retryMs * 2);
}

$("connect").addEventListener("submit", (event) => {
  event.preventDefault();
  state.key = $("key").value.trim();
  state.ticker = $("ticker").value.trim().toUpperCase();
  state.stopped = false;
  state.socket?.close(1000, "reconnecting");
  connect();
});

// Closes the socket as a network drop would end it: the client gets a new ticket and goes on.
$("drop").addEventListener("click", () => state.socket?.close(4000, "dropped by the page"));
