/** The 101 answer that hands `client` to the caller (the Workers-only `webSocket` response field). */
export function upgraded(client: WebSocket): Response {
  return new Response(null, { status: 101, webSocket: client } as ResponseInit & { webSocket: WebSocket });
}
