/** A field-level validation problem, as sent in a 400's `details`. */
export interface ErrorDetail {
  path: string;
  message: string;
}

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 429;

/**
 * An error's stable machine name. Code decides on it, never on the message, which is written for
 * people and may change. Each class has its code; a case a caller must tell apart from the rest
 * of its class gets one of its own, given as `options.code`.
 */
export type ErrorCode =
  | 'invalid'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'too_many_requests'
  // Conflicts told apart: SCIM answers the first three with `uniqueness`; a budget alert skips an unconnected team chat.
  | 'email_taken'
  | 'team_name_taken'
  | 'default_team_kept'
  | 'not_connected'
  // SCIM's own 400s, each answered with its `scimType` (`scim/errors.ts`).
  | 'unreadable_body'
  | 'invalid_filter'
  | 'invalid_path'
  | 'immutable'
  | 'no_target';

export interface DomainErrorOptions extends ErrorOptions {
  /** The case's own code, where a caller tells it apart; else the class's. */
  code?: ErrorCode;
}

/**
 * Base of the errors a client caused. The HTTP layer answers them with their status and `{ error,
 * details }` or `{ error, ...extra }` (`http/error-body.ts`); SCIM answers them in its own form.
 * A subclass only names its status, code and default message, and keeps its call sites' arguments.
 */
export abstract class DomainError extends Error {
  override name = 'DomainError';
  readonly code: ErrorCode;
  /** Field-level problems, sent as the body's `details` (a validation error has them). */
  readonly details?: ErrorDetail[];
  /** Fields of the error's body besides `error` (a refused budget names it). */
  readonly extra?: Record<string, unknown>;

  constructor(
    readonly status: ErrorStatus,
    code: ErrorCode,
    message: string,
    body: { details?: ErrorDetail[]; extra?: Record<string, unknown> } = {},
    options: DomainErrorOptions = {},
  ) {
    super(message, options);
    this.code = options.code ?? code;
    this.details = body.details;
    this.extra = body.extra;
  }
}

/** Whether `error` is a domain error of this code: how code tells cases apart. */
export function hasErrorCode(error: unknown, code: ErrorCode): boolean {
  return error instanceof DomainError && error.code === code;
}

export class ValidationError extends DomainError {
  override name = 'ValidationError';
  declare readonly details: ErrorDetail[];
  constructor(message: string, details: ErrorDetail[] = [], options?: DomainErrorOptions) {
    super(400, 'invalid', message, { details }, options);
  }
}

export class UnauthorizedError extends DomainError {
  override name = 'UnauthorizedError';
  constructor(message = 'authentication required', options?: DomainErrorOptions) {
    super(401, 'unauthorized', message, {}, options);
  }
}

/** Spending past a budget: 402 with the budget named in `extra`. */
export class PaymentRequiredError extends DomainError {
  override name = 'PaymentRequiredError';
  declare readonly extra: Record<string, unknown>;
  constructor(message: string, extra: Record<string, unknown>, options?: DomainErrorOptions) {
    super(402, 'payment_required', message, { extra }, options);
  }
}

export class ForbiddenError extends DomainError {
  override name = 'ForbiddenError';
  constructor(message = 'this action needs the admin role', options?: DomainErrorOptions) {
    super(403, 'forbidden', message, {}, options);
  }
}

export class NotFoundError extends DomainError {
  override name = 'NotFoundError';
  constructor(message = 'not found', options?: DomainErrorOptions) {
    super(404, 'not_found', message, {}, options);
  }
}

export class ConflictError extends DomainError {
  override name = 'ConflictError';
  constructor(message: string, options?: DomainErrorOptions) {
    super(409, 'conflict', message, {}, options);
  }
}

/** Something that existed and is used up for good (a one-time link already used). */
export class GoneError extends DomainError {
  override name = 'GoneError';
  constructor(message: string, options?: DomainErrorOptions) {
    super(410, 'gone', message, {}, options);
  }
}

export class PayloadTooLargeError extends DomainError {
  override name = 'PayloadTooLargeError';
  constructor(message = 'request body is larger than 1 MiB', options?: DomainErrorOptions) {
    super(413, 'payload_too_large', message, {}, options);
  }
}

export class UnsupportedMediaTypeError extends DomainError {
  override name = 'UnsupportedMediaTypeError';
  constructor(message = 'request body must be application/json', options?: DomainErrorOptions) {
    super(415, 'unsupported_media_type', message, {}, options);
  }
}

export class TooManyRequestsError extends DomainError {
  override name = 'TooManyRequestsError';
  constructor(
    message: string,
    /** Seconds until a retry may succeed; sent as `Retry-After`. */
    readonly retryAfterSeconds: number,
    options?: DomainErrorOptions,
  ) {
    super(429, 'too_many_requests', message, {}, options);
  }
}

/** The message of anything thrown: an Error's message, else the value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
