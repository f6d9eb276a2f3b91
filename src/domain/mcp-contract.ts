/**
 * What the API Worker and the MCP Worker (workers/mcp) say to each other over their service binding.
 * The API Worker checks the key of a `POST /mcp`, counts it, and hands the request to the MCP Worker
 * with a caller: the key's kind, and functions that run back in the API Worker (Workers RPC turns them
 * into stubs), so that a tool call is an ordinary API request on the caller's key, answered by the
 * same routes, checks and caches as over HTTP. No binding points back from the MCP Worker to the API.
 */
/**
 * The largest answer a tool gives, in bytes of JSON (about 8,000 tokens of a model's context): past
 * it the MCP Worker cuts the answer's longest list and says how to ask for the rest.
 */
export const MCP_ANSWER_BYTES = 32_000;

/** One API request a tool (or a resource, or a completion) makes. */
export interface ApiCall {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The path with its parameters filled in, e.g. `/eod/AAPL`. */
  path: string;
  /** Query parameters, in order. */
  query: [string, string][];
  /** A JSON body, already serialised. */
  body?: string;
}

/** The API's answer to an `ApiCall`, its body as text. */
export interface ApiAnswer {
  status: number;
  contentType: string;
  body: string;
  /** `Retry-After` of a 429, seconds. */
  retryAfter: string | null;
}

/** Who is asking, and the way back into the API Worker. */
export interface McpCaller {
  /** A read-only key is shown only the tools whose routes it may call. */
  keyKind: "full" | "read_only";
  /** The API's OpenAPI document as JSON: the tools are read from it. */
  document(): Promise<string>;
  /** One API request on the caller's key. An MCP message makes at most one. */
  call(request: ApiCall): Promise<ApiAnswer>;
}

/** The MCP Worker's entrypoint, as the API Worker's `MCP_SERVER` binding sees it. */
export interface McpServerBinding {
  serve(request: Request, caller: McpCaller): Promise<Response>;
}
