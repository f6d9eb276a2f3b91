import type { Hook } from "@hono/zod-openapi";
import { OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { Access } from "../auth";
import type { AppEnv } from "./env";
import { renderError } from "./errors";

/** Every validation failure answers 400 `{error, message, details}` listing each wrong field. */
export const defaultHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  // The one renderer of errors: a ZodError is the 400 listing each wrong field.
  if (!result.success) return renderError(result.error, c);
  return undefined;
};

/** A sub-app with the shared validation hook. */
export function createApi(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook });
}

export const ErrorSchema = z
  .object({
    error: z.string().openapi({ example: "Invalid request" }),
    message: z.string(),
    reason: z.string().optional(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    detail: z
      .string()
      .optional()
      .openapi({ description: "On /workspace routes: the message again, where the analytics workspace reads it" }),
  })
  .openapi("Error");
export type ErrorBody = z.infer<typeof ErrorSchema>;

const json = (description: string) => ({ description, content: { "application/json": { schema: ErrorSchema } } });

/** The error answers a route can give, by status: the one table every route's OpenAPI entry draws on. */
const ERROR_RESPONSES = {
  400: json("Invalid request"),
  401: json("Missing or unknown API key"),
  403: json("A full-access key is required"),
  404: json("Not found"),
  409: json("The request conflicts with what is stored"),
  413: json("The body is larger than the service accepts (64 KiB)"),
  415: json("The body is not JSON"),
  422: json("Not enough data for the parameters"),
  429: {
    ...json("The key has used its requests for the minute; Retry-After says when to retry"),
    headers: {
      "Retry-After": { description: "Seconds to wait", schema: { type: "integer" as const } },
      "RateLimit-Limit": { description: "The key's requests a minute", schema: { type: "integer" as const } },
      "RateLimit-Remaining": { description: "Requests left this minute", schema: { type: "integer" as const } },
      "RateLimit-Reset": { description: "Seconds until the minute resets", schema: { type: "integer" as const } },
    },
  },
  500: json("An unexpected error, or a setting of the service that does not parse"),
  503: json("A dependency (the database, a provider) is unavailable; a retry may succeed"),
} as const;

/** Errors only some routes give, named by the route. */
export type RouteSpecificError = 404 | 409 | 422;

/**
 * A route's config with its error answers from ERROR_RESPONSES: every route can answer 400, 500
 * and 503 (the database or a provider); 401 and 429 (the key's rate) unless it is public, and 403
 * when it needs a full-access key, all read from the route's own `"x-access"` (who may call it:
 * the one place it is decided, which the key check reads too); 413 unless it is a GET and 415 when
 * it reads a JSON body;
 * and the route-specific ones it names.
 * @example createRoute(withErrors({ method: "get", path: "/eod/{ticker}", ... }, [404])))
 */
export function withErrors<R extends RouteConfig & { "x-access": Access }>(
  config: R,
  specific: readonly RouteSpecificError[] = [],
): R {
  const access = config["x-access"];
  const statuses: (keyof typeof ERROR_RESPONSES)[] = [
    400,
    ...(access === "public" ? [] : [401 as const]),
    ...(access === "full" || access === "admin" ? [403 as const] : []),
    ...specific,
    // Any body is size-checked (413); a route that reads a JSON body refuses other media types (415).
    ...(config.method === "get" ? [] : [413 as const]),
    ...(config.request?.body ? [415 as const] : []),
    ...(access === "public" ? [] : [429 as const]),
    500,
    503,
  ];
  const responses = Object.fromEntries(statuses.map((s) => [s, ERROR_RESPONSES[s]]));
  return { ...config, responses: { ...responses, ...config.responses } };
}

/** Security requirement of routes that need a key (either header works). */
export const keyed: Record<string, string[]>[] = [{ ApiKeyHeader: [] }, { BearerKey: [] }];

/**
 * A text parameter: bounded, and free of control characters (Postgres refuses NUL in text, and no
 * code, ticker or name has one), so such input is a 400 here rather than a database error later.
 */
export function textParam(maxLength: number) {
  return (
    z
      .string()
      .max(maxLength)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is this rule's purpose
      .regex(/^[^\u0000-\u001f\u007f]*$/, "must not contain control characters")
  );
}
