import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ZodError } from "zod";
import { type ErrorCode, ServiceError } from "../domain/errors";
import { ConfigError } from "../env";
import { lowerFailureAsServiceError } from "../services/provider-failure";

/**
 * The HTTP side of the error model: each code of `domain/errors.ts` to one status and one title
 * (`STATUS_OF`, `TITLE_OF`), and the one renderer of the app.
 */
const STATUS_OF: Record<ErrorCode, ContentfulStatusCode> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  NO_DATA: 404,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  UPSTREAM_UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** The `error` field of each code: the spec fixes the EOD wording, the rest follow it. */
const TITLE_OF: Record<ErrorCode, string> = {
  BAD_REQUEST: "Invalid request",
  UNAUTHORIZED: "Unauthorized",
  FORBIDDEN: "Forbidden",
  NOT_FOUND: "Not found",
  CONFLICT: "Conflict",
  NO_DATA: "No data found",
  PAYLOAD_TOO_LARGE: "Payload too large",
  UNSUPPORTED_MEDIA_TYPE: "Unsupported media type",
  UNPROCESSABLE: "Unprocessable",
  RATE_LIMITED: "Too many requests",
  UPSTREAM_UNAVAILABLE: "Upstream unavailable",
  INTERNAL: "Internal error",
};

export interface ErrorBody {
  error: string;
  message: string;
  reason?: string;
  details?: unknown;
}

export function errorBody(
  code: ErrorCode,
  message: string,
  extra: { reason?: string; details?: unknown } = {},
): ErrorBody {
  const body: ErrorBody = { error: TITLE_OF[code], message };
  if (extra.reason !== undefined) body.reason = extra.reason;
  if (extra.details !== undefined) body.details = extra.details;
  return body;
}

export function statusOf(code: ErrorCode): ContentfulStatusCode {
  return STATUS_OF[code];
}

/** Zod issues as `{path, message}` so a caller sees every wrong field at once. */
export function zodDetails(error: ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
}

export function zodMessage(error: ZodError): string {
  return zodDetails(error)
    .map((d) => (d.path ? `${d.path}: ${d.message}` : d.message))
    .join("; ");
}

/** Hono's own HTTP errors by status: each keeps its meaning (a 415 is not an "Invalid request"). */
const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "RATE_LIMITED",
};

/**
 * An error answer; on the workspace routes the message also goes in `detail`, the field the
 * analytics workspace shows in a widget (its backends answer FastAPI's `{detail}`).
 */
function answer(c: Context, body: ReturnType<typeof errorBody>, status: ReturnType<typeof statusOf>): Response {
  return c.json(c.req.path.startsWith("/workspace/") ? { ...body, detail: body.message } : body, status);
}

/** The single error renderer of the app: JSON always, never a stack trace. */
export function renderError(err: unknown, c: Context): Response {
  if (err instanceof ServiceError) {
    const { retryAfterSeconds, ...extra } = err.extra;
    if (retryAfterSeconds !== undefined) c.header("Retry-After", String(retryAfterSeconds));
    return answer(c, errorBody(err.code, err.message, extra), statusOf(err.code));
  }
  if (err instanceof ZodError) {
    return answer(c, errorBody("BAD_REQUEST", zodMessage(err), { details: zodDetails(err) }), 400);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    // Hono raises 400 for a malformed JSON body; keep its message, it names the problem.
    const code = CODE_OF_STATUS[status] ?? (status >= 500 ? "INTERNAL" : "BAD_REQUEST");
    return answer(c, errorBody(code, err.message || TITLE_OF[code]), statusOf(code));
  }
  // Backstop: services turn provider and database failures into answers; one that escapes is still theirs.
  const mapped = lowerFailureAsServiceError(err, c.req.path);
  if (mapped !== err) return renderError(mapped, c);
  if (err instanceof ConfigError) {
    console.error(err.message);
    return answer(c, errorBody("INTERNAL", err.message), 500);
  }
  console.error("unhandled error", c.req.method, c.req.path, err);
  return answer(c, errorBody("INTERNAL", "An unexpected error occurred"), 500);
}
