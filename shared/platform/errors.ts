/** A field-level validation problem, as sent in a 400's `details`. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** Base of the errors the HTTP layer maps to a status and `{ error }` body. */
export abstract class DomainError extends Error {
  abstract readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 429;
  /** Fields of the error's body besides `error` (a refused budget names it). */
  readonly extra?: Record<string, unknown>;
}

export class ValidationError extends DomainError {
  readonly status = 400;
  constructor(
    message: string,
    readonly details: ErrorDetail[] = [],
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ValidationError';
  }
}

export class UnauthorizedError extends DomainError {
  readonly status = 401;
  constructor(message = 'authentication required', options?: ErrorOptions) {
    super(message, options);
    this.name = 'UnauthorizedError';
  }
}

/** Spending past a budget: 402 with the budget named in `extra`. */
export class PaymentRequiredError extends DomainError {
  readonly status = 402;
  constructor(
    message: string,
    override readonly extra: Record<string, unknown>,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'PaymentRequiredError';
  }
}

export class ForbiddenError extends DomainError {
  readonly status = 403;
  constructor(message = 'this action needs the admin role', options?: ErrorOptions) {
    super(message, options);
    this.name = 'ForbiddenError';
  }
}

export class NotFoundError extends DomainError {
  readonly status = 404;
  constructor(message = 'not found', options?: ErrorOptions) {
    super(message, options);
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends DomainError {
  readonly status = 409;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ConflictError';
  }
}

/** Something that existed and is used up for good (a one-time link already used). */
export class GoneError extends DomainError {
  readonly status = 410;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'GoneError';
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly status = 413;
  constructor(message = 'request body is larger than 1 MiB', options?: ErrorOptions) {
    super(message, options);
    this.name = 'PayloadTooLargeError';
  }
}

export class UnsupportedMediaTypeError extends DomainError {
  readonly status = 415;
  constructor(message = 'request body must be application/json', options?: ErrorOptions) {
    super(message, options);
    this.name = 'UnsupportedMediaTypeError';
  }
}

export class TooManyRequestsError extends DomainError {
  readonly status = 429;
  constructor(
    message: string,
    /** Seconds until a retry may succeed; sent as `Retry-After`. */
    readonly retryAfterSeconds: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'TooManyRequestsError';
  }
}

/** The message of anything thrown: an Error's message, else the value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
