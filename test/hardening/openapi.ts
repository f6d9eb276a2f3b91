import { exports } from "cloudflare:workers";
import type { Access } from "../../src/auth";

/** The parts of an OpenAPI 3.1 document the generated tests read. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  example?: unknown;
  default?: unknown;
  $ref?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** As documented, e.g. `/eod/{ticker}`. */
  template: string;
  /** As the access table and Hono name it, e.g. `/eod/:ticker`. */
  honoPath: string;
  /** `x-access`: who may call it, as its definition says (what the key check reads). */
  access: Access | undefined;
  parameters: Parameter[];
  /** The JSON body's schema, refs resolved; undefined when the operation takes no body. */
  body?: JsonSchema;
  security: unknown[] | undefined;
  responses: string[];
  /** `x-writes` on a GET: the read may store what it fetched (an ingestion), so it is tested as a write. */
  writes: boolean;
  /** `x-example-query`: the query of the operation's example request, when its parameters' examples are not enough. */
  exampleQuery?: string;
  /** `x-precondition`: a GET whose effect the example request needs first (e.g. the enrichment a valuation reads). */
  precondition?: string;
  /** `x-background`: the operation answers at once and does its work after the answer (waitUntil). */
  background: boolean;
  /** `x-counted`: each call spends one of this many (per key): past them a 429, in sequence as at once. */
  counted?: number;
  /** `x-example-status`: what the documented example answers on a fresh instance, when it is not 200. */
  exampleStatus?: number;
  /** `x-touches`: tickers the operation's work writes about though no parameter names them (the canary's instruments). */
  touches: string[];
}

interface Document {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Parameter[];
        requestBody?: unknown;
        security?: unknown[];
        responses: Record<string, unknown>;
        "x-writes"?: boolean;
        "x-counted"?: number;
        "x-access"?: Access;
        "x-example-query"?: string;
        "x-precondition"?: string;
        "x-background"?: boolean;
        "x-example-status"?: number;
        "x-touches"?: string[];
      }
    >
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Replaces `$ref`s by the component they name (the document has no recursive schemas). */
function resolve(schema: JsonSchema, doc: Document): JsonSchema {
  if (schema.$ref) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    const target = doc.components?.schemas?.[name];
    if (!target) throw new Error(`unresolved ${schema.$ref}`);
    return resolve(target, doc);
  }
  const out: JsonSchema = { ...schema };
  if (schema.items) out.items = resolve(schema.items, doc);
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolve(v, doc)]));
  }
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const list = schema[key];
    if (list) out[key] = list.map((s) => resolve(s, doc));
  }
  return out;
}

/**
 * Every operation of the service's own OpenAPI document, as served: the generated tests cover a route
 * the moment it is documented, without being edited.
 */
export async function documentedOperations(): Promise<Operation[]> {
  const res = await exports.default.fetch(new Request("http://svc/openapi.json"));
  const doc = (await res.json()) as Document;
  const ops: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const content = (op.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)?.content;
      const bodySchema = content?.["application/json"]?.schema;
      ops.push({
        method: method.toUpperCase(),
        template,
        honoPath: template.replace(/\{(\w+)\}/g, ":$1"),
        access: op["x-access"],
        parameters: (op.parameters ?? []).map((p) => ({ ...p, schema: resolve(p.schema, doc) })),
        body: bodySchema ? resolve(bodySchema, doc) : undefined,
        security: op.security,
        responses: Object.keys(op.responses),
        writes: op["x-writes"] === true,
        exampleQuery: op["x-example-query"],
        precondition: op["x-precondition"],
        background: op["x-background"] === true,
        exampleStatus: op["x-example-status"],
        counted: op["x-counted"],
        touches: op["x-touches"] ?? [],
      });
    }
  }
  return ops;
}
