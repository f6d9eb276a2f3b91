import type { RouteConfig } from "@hono/zod-openapi";
import type { ZodType } from "zod";
import { createApp } from "../../src/app";
import { ErrorSchema } from "../../src/routes/openapi";

/** A documented operation: its method, its path template as a pattern, and its declared answers. */
interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  responses: RouteConfig["responses"];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, "\\$&");

/** The operations of the OpenAPI document, read once from the app itself (the schemas the routes declare). */
const operations: Operation[] = createApp().openAPIRegistry.definitions.flatMap((def) => {
  if (def.type !== "route") return [];
  const { method, path, responses } = def.route;
  const parts = path.split(/\{\w+\}/);
  return [
    {
      method: method.toUpperCase(),
      template: path,
      pattern: new RegExp(`^${parts.map(escapeRegExp).join("[^/]+")}$`),
      params: parts.length - 1,
      responses,
    },
  ];
});

/** The operation answering `method pathname`; literal segments win (/technical/list is no ticker). */
function operationOf(method: string, pathname: string): Operation | undefined {
  const matches = operations.filter((o) => o.method === method && o.pattern.test(pathname));
  return matches.sort((a, b) => a.params - b.params)[0];
}

const isZodType = (s: unknown): s is ZodType =>
  typeof s === "object" && s !== null && "safeParse" in s && typeof s.safeParse === "function";

/**
 * What is wrong with an answer for the document, or undefined: it must have a declared status, a
 * declared media type, and a JSON body its schema accepts. Paths outside the document (/openapi.json,
 * /docs, the WebSocket route) are left alone, but an unknown route's 404 must still be a JSON error.
 */
function problemWith(op: Operation | undefined, status: number, contentType: string, json: unknown) {
  const jsonError = json !== undefined && ErrorSchema.safeParse(json).success;
  if (!op) return status === 404 && !jsonError ? "an unknown route must answer a JSON {error, message}" : undefined;
  const declared = op.responses[String(status)];
  if (!declared) return "a status the route does not declare";
  if (!("content" in declared) || !declared.content) return "a status declared without a body";
  const mediaType = contentType.split(";")[0]?.trim() ?? "";
  const media = (declared.content as Record<string, unknown>)[json === undefined ? mediaType : "application/json"];
  if (!media) return `a ${mediaType || "body without a content type"}, which this status does not declare`;
  if (json === undefined) return undefined;
  const schema = typeof media === "object" && "schema" in media ? media.schema : undefined;
  if (!isZodType(schema)) return "its JSON schema is not a zod schema";
  const parsed = schema.safeParse(json);
  if (parsed.success) return undefined;
  // The first issues say what is wrong; a long series would repeat one issue per element.
  const { issues } = parsed.error;
  const lines = issues.slice(0, 10).map((i) => `  ${i.path.join(".") || "(body)"}: ${i.message}`);
  if (issues.length > 10) lines.push(`  and ${issues.length - 10} more`);
  return `the body does not match the declared schema:\n${lines.join("\n")}\nbody: ${JSON.stringify(json).slice(0, 500)}`;
}

/**
 * What is wrong with an answer for the OpenAPI document (a status, media type or body the route
 * does not declare), naming the operation and its status; undefined when nothing is.
 */
export function contractProblem(
  method: string,
  pathname: string,
  status: number,
  contentType: string,
  json: unknown,
): string | undefined {
  const op = operationOf(method, pathname);
  const problem = problemWith(op, status, contentType, json);
  return problem && `(${op?.template ?? "undocumented"}) answered ${status}: ${problem}`;
}
