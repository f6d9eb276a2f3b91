/**
 * The MCP tools, read from the API's OpenAPI document: every operation that names a tool
 * (`"x-mcp-tool"` in its route definition) is one, with the route's summary and description, and an
 * input schema made of its path and query parameters (at the top level) and its JSON body (under
 * `body`). Pure: the document in, the tools out.
 */

type Json = Record<string, unknown>;

/** Who may call a tool: the route's `"x-access"`. */
export type ToolAccess = "public" | "any" | "full" | "admin";

export interface Tool {
  name: string;
  title: string;
  description: string;
  access: ToolAccess;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The route's template, e.g. `/eod/{ticker}`. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
  inputSchema: { type: "object"; properties: Record<string, Json>; required?: string[]; additionalProperties: false };
}

/** Parameters a tool does not offer: its answer is always JSON, and its key comes from the MCP request. */
const NOT_OFFERED = new Set(["fmt", "api_token"]);
/** How much of a route's description a tool carries: whole sentences, at most this many characters. */
const DESCRIPTION_CHARS = 900;
/** How deep `$ref`s are inlined (the schemas are trees; a deeper one becomes `{}`). */
const MAX_REF_DEPTH = 12;

/** Whole sentences of `text` up to `max` characters. */
export function firstSentences(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const end = Math.max(head.lastIndexOf(". "), head.lastIndexOf("; "));
  return end > max / 3 ? `${head.slice(0, end + 1)} …` : `${head.trimEnd()}…`;
}

/** A schema with its `$ref`s to the document's components replaced by what they name. */
function inline(schema: unknown, components: Json, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, components, depth));
  if (schema === null || typeof schema !== "object") return schema;
  const s = schema as Json;
  if (typeof s.$ref === "string") {
    const name = /^#\/components\/schemas\/(.+)$/.exec(s.$ref)?.[1];
    const target = name === undefined ? undefined : components[name];
    if (target === undefined || depth >= MAX_REF_DEPTH) return {};
    const { $ref: _ref, ...rest } = s;
    return { ...(inline(target, components, depth + 1) as Json), ...rest };
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) out[k] = inline(v, components, depth);
  return out;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** The tools of an OpenAPI document, in the order of its paths. */
export function toolsOf(document: Json): Tool[] {
  const components = ((document.components as Json | undefined)?.schemas as Json | undefined) ?? {};
  const tools: Tool[] = [];
  for (const [path, item] of Object.entries((document.paths as Json | undefined) ?? {})) {
    for (const method of METHODS) {
      const op = (item as Json)[method] as Json | undefined;
      const name = op?.["x-mcp-tool"];
      if (!op || typeof name !== "string") continue;
      const properties: Record<string, Json> = {};
      const required: string[] = [];
      const pathParams: string[] = [];
      const queryParams: string[] = [];
      for (const p of (op.parameters as Parameter[] | undefined) ?? []) {
        if ((p.in !== "path" && p.in !== "query") || NOT_OFFERED.has(p.name)) continue;
        const schema = inline(p.schema ?? {}, components) as Json;
        properties[p.name] = p.description ? { ...schema, description: p.description } : schema;
        if (p.in === "path") pathParams.push(p.name);
        else queryParams.push(p.name);
        if (p.required || p.in === "path") required.push(p.name);
      }
      const body = (op.requestBody as Json | undefined)?.content as Json | undefined;
      const bodySchema = (body?.["application/json"] as Json | undefined)?.schema;
      if (bodySchema !== undefined) {
        properties.body = { ...(inline(bodySchema, components) as Json), description: "The route's JSON body" };
        if ((op.requestBody as Json).required) required.push("body");
      }
      const summary = typeof op.summary === "string" ? op.summary : name;
      const description = typeof op.description === "string" ? op.description : "";
      tools.push({
        name,
        title: summary,
        description: firstSentences(`${summary}. ${description}`.trim(), DESCRIPTION_CHARS),
        access: (op["x-access"] as ToolAccess | undefined) ?? "full",
        method: method.toUpperCase() as Tool["method"],
        path,
        pathParams,
        queryParams,
        hasBody: bodySchema !== undefined,
        inputSchema: {
          type: "object",
          properties,
          ...(required.length > 0 ? { required } : {}),
          additionalProperties: false,
        },
      });
    }
  }
  return tools;
}

/** Whether a key of this kind may call the tool: what its route lets the key do over HTTP. */
export const mayCall = (tool: Tool, keyKind: "full" | "read_only"): boolean =>
  tool.access === "public" || tool.access === "any" || (tool.access === "full" && keyKind === "full");
