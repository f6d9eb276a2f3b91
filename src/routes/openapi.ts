import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { Hook } from "@hono/zod-openapi";
import type { AppEnv } from "../deps";
import { errorBody, zodDetails, zodMessage } from "../errors";

/** Every validation failure answers 400 `{error, message, details}` listing each wrong field. */
export const defaultHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (!result.success) {
    return c.json(errorBody("BAD_REQUEST", zodMessage(result.error), { details: zodDetails(result.error) }), 400);
  }
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
  })
  .openapi("Error");

const json = (description: string) => ({ description, content: { "application/json": { schema: ErrorSchema } } });

/** The error answers a route can give, by status, for its OpenAPI entry. */
export const errors = {
  400: json("Invalid request"),
  401: json("Missing or unknown API key"),
  403: json("A full-access key is required"),
  404: json("Not found"),
  422: json("Not enough data for the parameters"),
  503: json("A dependency is unavailable"),
} as const;

/** Security requirement of routes that need a key (either header works). */
export const keyed: Record<string, string[]>[] = [{ ApiKeyHeader: [] }, { BearerKey: [] }];

/**
 * A text parameter: bounded, and free of control characters (Postgres refuses NUL in text, and no
 * code, ticker or name has one), so such input is a 400 here rather than a database error later.
 */
export function textParam(maxLength: number) {
  return z
    .string()
    .max(maxLength)
    .regex(/^[^\u0000-\u001f\u007f]*$/, "must not contain control characters");
}
