import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { MCP_ANSWER_BYTES, type McpCaller } from "../../../src/domain/mcp-contract";
import { fittedAnswer } from "./answer-budget";
import { ArgumentError, apiCallOf, resultOf } from "./call-tool";
import { PROMPTS, promptMessages } from "./prompts";
import { RESOURCE_TEMPLATES, RESOURCES, resourceCall } from "./resources";
import { mayCall, type Tool, toolsOf } from "./tools";

/** How long an isolate keeps the tools it read from the API's document before reading them again. */
const CATALOGUE_TTL_MS = 10 * 60_000;
let catalogue: { tools: Tool[]; version: string; at: number } | undefined;

/** The tools of the API's document, read once per isolate (and again after CATALOGUE_TTL_MS, for a new deploy). */
async function toolCatalogue(caller: McpCaller): Promise<{ tools: Tool[]; version: string }> {
  const now = Date.now();
  if (catalogue && now - catalogue.at < CATALOGUE_TTL_MS) return catalogue;
  const document = JSON.parse(await caller.document()) as Record<string, unknown>;
  const version = String((document.info as { version?: unknown } | undefined)?.version ?? "0");
  catalogue = { tools: toolsOf(document), version, at: now };
  return catalogue;
}

const INSTRUCTIONS =
  "Market data: instruments and listings, end-of-day and intraday prices, dividends and splits, technical indicators and screens, fundamentals with the source of each figure, DCF valuation, the risk-free rate, news, quotes, exchanges and calendars. Tickers are the service's (AAPL, ASML.AS, MC.PA); search_instruments finds them by name or ISIN. A tool's answer is the API route's JSON; one past the size budget is cut, and its `cut` says how to ask for the rest.";

/** The message of an API error answer, or its first characters when it is not the API's JSON. */
function errorMessage(body: string): string {
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    if (typeof message === "string") return message;
  } catch {
    // Not JSON: its text below.
  }
  return body.slice(0, 300);
}

/**
 * A JSON-RPC batch (an array of messages in one POST) is refused: protocol versions since
 * 2025-06-18 have none, and one POST is one count of the key and makes at most one API request.
 */
async function refusingBatches(request: Request): Promise<Request | Response> {
  if (request.method !== "POST") return request;
  const text = await request.text();
  if (/^\s*\[/.test(text)) {
    return Response.json(
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: send one message per POST (no batches)" } },
      { status: 400 },
    );
  }
  return new Request(request.url, { method: "POST", headers: request.headers, body: text });
}

/**
 * Answers one Streamable HTTP request statelessly: a fresh server and transport per request (no
 * session to keep, so any isolate answers any message), JSON answers rather than a stream.
 */
export async function serveMessage(incoming: Request, caller: McpCaller): Promise<Response> {
  const request = await refusingBatches(incoming);
  if (request instanceof Response) return request;
  // Before 2025-06-18 there was no header, and no structured content (the JSON then goes in the text).
  const protocolVersion = request.headers.get("mcp-protocol-version") ?? "2025-03-26";
  const server = new Server(
    { name: "market-data-service", version: "0.1.0" },
    {
      capabilities: { tools: { listChanged: false }, resources: {}, prompts: {}, completions: {} },
      instructions: INSTRUCTIONS,
    },
  );

  const toolNamed = async (name: string): Promise<Tool> => {
    const tool = (await toolCatalogue(caller)).tools.find((t) => t.name === name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    if (!mayCall(tool, caller.keyKind)) {
      throw new McpError(ErrorCode.InvalidParams, `The tool ${name} changes data and needs a full-access key`);
    }
    return tool;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await toolCatalogue(caller)).tools
      .filter((t) => mayCall(t, caller.keyKind))
      .map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema,
        annotations: {
          title: t.title,
          readOnlyHint: t.access !== "full",
          destructiveHint: false,
          idempotentHint: t.method === "GET",
          openWorldHint: true,
        },
      })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = await toolNamed(req.params.name);
    const args = (req.params.arguments ?? {}) as Record<string, unknown>;
    let call: ReturnType<typeof apiCallOf>;
    try {
      call = apiCallOf(tool, args);
    } catch (err) {
      if (err instanceof ArgumentError) return { isError: true, content: [{ type: "text", text: err.message }] };
      throw err;
    }
    return resultOf(tool, args, await caller.call(call), protocolVersion);
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [...RESOURCES] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [...RESOURCE_TEMPLATES],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const call = resourceCall(req.params.uri);
    if (!call) throw new McpError(-32002, `Resource not found: ${req.params.uri}`);
    const answer = await caller.call(call);
    if (answer.status === 404) throw new McpError(-32002, `Resource not found: ${req.params.uri}`);
    if (answer.status >= 400) {
      const message = errorMessage(answer.body);
      throw new McpError(answer.status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError, message);
    }
    const text = JSON.stringify(fittedAnswer(JSON.parse(answer.body), MCP_ANSWER_BYTES, [], {}));
    return { contents: [{ uri: req.params.uri, mimeType: "application/json", text }] };
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: PROMPTS.map((p) => ({ ...p, arguments: [...p.arguments] })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const args = req.params.arguments ?? {};
    if (req.params.name === "value_company" && !args.ticker?.trim()) {
      throw new McpError(ErrorCode.InvalidParams, "value_company needs a ticker");
    }
    const prompt = promptMessages(req.params.name, args);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${req.params.name}`);
    return prompt;
  });

  // Completion of the prompt's ticker and the instrument template's ISIN, from the catalogue's search.
  server.setRequestHandler(CompleteRequestSchema, async (req) => {
    const { ref, argument } = req.params;
    const wanted =
      ref.type === "ref/prompt" && ref.name === "value_company" && argument.name === "ticker"
        ? "ticker"
        : ref.type === "ref/resource" && ref.uri === "market://instruments/{isin}" && argument.name === "isin"
          ? "isin"
          : undefined;
    if (!wanted) throw new McpError(ErrorCode.InvalidParams, `Nothing to complete for ${argument.name} there`);
    const q = argument.value.trim();
    if (q.length === 0) return { completion: { values: [], hasMore: false } };
    const answer = await caller.call({ method: "GET", path: "/search", query: [["q", q.slice(0, 100)], ["limit", "10"]] });
    if (answer.status >= 400) return { completion: { values: [], hasMore: false } };
    const results = (JSON.parse(answer.body) as { results?: Record<string, unknown>[] }).results ?? [];
    const values = [...new Set(results.map((r) => r[wanted]).filter((v): v is string => typeof v === "string"))];
    return { completion: { values: values.slice(0, 100), total: values.length, hasMore: false } };
  });

  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
