import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type ApiAnswer, type ApiCall, MCP_ANSWER_BYTES } from "../../../src/domain/mcp-contract";
import { type Cut, fittedAnswer } from "./answer-budget";
import type { Tool } from "./tools";

type Json = Record<string, unknown>;

/** A tool's arguments that do not make a request: said to the model as a tool error it can mend. */
export class ArgumentError extends Error {}

/** A query or path value as the route reads it: a list becomes its comma-separated items. */
function asText(name: string, value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) return value.join(",");
  throw new ArgumentError(`${name}: a string, a number, a boolean or a list of them`);
}

/** The API request a tool call makes: its path filled in, its query and its body from the arguments. */
export function apiCallOf(tool: Tool, args: Json): ApiCall {
  const known = new Set([...tool.pathParams, ...tool.queryParams, ...(tool.hasBody ? ["body"] : [])]);
  const unknown = Object.keys(args).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    throw new ArgumentError(
      `${tool.name} takes no ${unknown.join(", ")}; its arguments are ${[...known].join(", ") || "none"}`,
    );
  }
  let path = tool.path;
  for (const name of tool.pathParams) {
    const value = args[name];
    if (value === undefined || value === "") throw new ArgumentError(`${tool.name} needs ${name}`);
    const text = asText(name, value);
    // A URL's dot segments would leave the route's path (`/dcf/../compare`).
    if (text === "." || text === "..") throw new ArgumentError(`${name}: not a value of it`);
    path = path.replace(`{${name}}`, encodeURIComponent(text));
  }
  const query: [string, string][] = [];
  for (const name of tool.queryParams) {
    if (args[name] !== undefined && args[name] !== null) query.push([name, asText(name, args[name])]);
  }
  return {
    method: tool.method,
    path,
    query,
    ...(tool.hasBody && args.body !== undefined ? { body: JSON.stringify(args.body) } : {}),
  };
}

/** A short line about a JSON answer: its scalar fields first, then its lists with their lengths. */
export function summaryOf(value: Json, cut: Cut | null): string {
  const scalars: string[] = [];
  const lists: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (Array.isArray(v)) lists.push(`${k}: ${v.length} rows`);
    else if (v === null || typeof v !== "object") {
      if (scalars.length < 6) scalars.push(`${k}=${String(v).slice(0, 40)}`);
    } else lists.push(k);
  }
  const parts = [scalars.join(", "), lists.join("; ")].filter(Boolean).join("; ");
  const cutNote = cut ? ` Cut: ${cut.returned} of ${cut.total} rows of ${cut.list || "the answer"}; ${cut.more}.` : "";
  return `${parts.slice(0, 400)}${cutNote}`;
}

/** Protocol versions before structured content: the JSON goes into the text as well. */
const TEXT_ONLY_VERSIONS = new Set(["2024-11-05", "2025-03-26"]);

/**
 * The tool's result from the API's answer: a 2xx as structured content (an array under `items`),
 * fitted to MCP_ANSWER_BYTES, with a one-line summary; an error as a tool error (`isError`) with the
 * route's status and message, which the model can act on.
 */
export function resultOf(tool: Tool, args: Json, answer: ApiAnswer, protocolVersion: string | null): CallToolResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    parsed = { text: answer.body.slice(0, MCP_ANSWER_BYTES) };
  }
  if (answer.status >= 400) {
    const body = (parsed ?? {}) as Json;
    const details = Array.isArray(body.details)
      ? (body.details as { path?: string; message?: string }[]).map((d) => `\n- ${d.path ?? ""}: ${d.message ?? ""}`)
      : [];
    const retry = answer.retryAfter ? ` Retry after ${answer.retryAfter} s.` : "";
    return {
      isError: true,
      content: [
        {
          type: "text",
          text: `${answer.status} ${String(body.error ?? "Error")}: ${String(body.message ?? "")}${retry}${details.join("")}`,
        },
      ],
      structuredContent: { status: answer.status, ...body },
    };
  }
  const structured = fittedAnswer(parsed, MCP_ANSWER_BYTES, tool.queryParams, args);
  const { cut = null, ...value } = structured as Json & { cut?: Cut };
  const summary = `${tool.method} ${tool.path}: ${summaryOf(value, cut)}`;
  const text =
    protocolVersion !== null && TEXT_ONLY_VERSIONS.has(protocolVersion)
      ? `${summary}\n${JSON.stringify(structured)}`
      : summary;
  return { content: [{ type: "text", text }], structuredContent: structured };
}
