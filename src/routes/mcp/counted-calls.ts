/**
 * The API requests an MCP message makes on its caller's key (a tool call, a resource read, a
 * completion). The `POST /mcp` that carries the message has been counted against the key's rate
 * already, so these are not counted again; each writes its own usage row (named by the route that
 * answers it) in place of the message's. Only the API Worker's own code can add a request here.
 */
const counted = new WeakSet<Request>();

/** Marks a request the API makes to itself for an MCP message; returns it. */
export function countedByMessage(request: Request): Request {
  counted.add(request);
  return request;
}

export const isCountedByMessage = (request: Request): boolean => counted.has(request);
