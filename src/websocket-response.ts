/** The 101 answer that hands `client` to the caller (the Workers-only `webSocket` response field). */
export function upgraded(client: WebSocket): Response {
  return new Response(null, { status: 101, webSocket: client } as ResponseInit & { webSocket: WebSocket });
}

/** A handshake refused inside the WebSocket protocol: accepted, then closed at once with `code` and `reason`. */
export function closedSocket(code: number, reason: string): Response {
  const pair = new WebSocketPair();
  const server = pair[1];
  server.accept();
  server.close(code, reason);
  return upgraded(pair[0]);
}
