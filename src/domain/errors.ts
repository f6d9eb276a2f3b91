/**
 * The errors services throw: free of HTTP (the HTTP layer, `src/routes/errors.ts`, maps each code to a
 * status and a title in one place). The message is for the caller; never put internals in it.
 */
export type ErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "NO_DATA"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "UNPROCESSABLE"
  | "RATE_LIMITED"
  | "UPSTREAM_UNAVAILABLE"
  | "INTERNAL";

export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { reason?: string; details?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

export class BadRequestError extends ServiceError {
  constructor(message: string, details?: unknown) {
    super("BAD_REQUEST", message, { details });
  }
}

export class NotFoundError extends ServiceError {
  /** `hint`: what the caller may ask for instead. */
  constructor(entity: string, id: string, hint?: string) {
    super("NOT_FOUND", `${entity} '${id}' not found${hint ? `; ${hint}` : ""}`);
  }
}

/** 404 with a `reason` the caller can act on (spec: EOD "No data found"). */
export class NoDataError extends ServiceError {
  constructor(message: string, reason: string) {
    super("NO_DATA", message, { reason });
  }
}

/** 422: the request is valid but the data cannot answer it (too few bars for the parameters). */
export class UnprocessableError extends ServiceError {
  constructor(message: string, details?: unknown) {
    super("UNPROCESSABLE", message, { details });
  }
}

/** 429: the key has used its requests for the window; `retryAfterSeconds` says when to come back. */
export class RateLimitedError extends ServiceError {
  constructor(message: string, retryAfterSeconds: number) {
    super("RATE_LIMITED", message, { retryAfterSeconds });
  }
}
