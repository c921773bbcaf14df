import { describe, expect, it } from 'vitest';
import { notConnected, UnconnectedChat } from '../../shared/chat/notifier-port.js';
import { clientErrorOf } from '../../shared/http/error-body.js';
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  GoneError,
  hasErrorCode,
  NotFoundError,
  PayloadTooLargeError,
  PaymentRequiredError,
  TooManyRequestsError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../shared/platform/errors.js';
import { scimRefusal, scimTypeOf } from '../../shared/scim/errors.js';

/*
 * One error model: every error a client caused is a DomainError with a status and a code, and
 * code decides on the code. The HTTP bodies and SCIM answers they make are pinned by the HTTP tests
 * (conventions, scim, audit-people-scim); here, the base class and the SCIM code table.
 */

describe('DomainError', () => {
  it('gives each class its status, code, name and default message', () => {
    const cases: [DomainError, number, string, string, string][] = [
      [new ValidationError('invalid request body'), 400, 'invalid', 'ValidationError', 'invalid request body'],
      [new UnauthorizedError(), 401, 'unauthorized', 'UnauthorizedError', 'authentication required'],
      [new PaymentRequiredError('budget exceeded', {}), 402, 'payment_required', 'PaymentRequiredError', 'budget exceeded'],
      [new ForbiddenError(), 403, 'forbidden', 'ForbiddenError', 'this action needs the admin role'],
      [new NotFoundError(), 404, 'not_found', 'NotFoundError', 'not found'],
      [new ConflictError('taken'), 409, 'conflict', 'ConflictError', 'taken'],
      [new GoneError('used'), 410, 'gone', 'GoneError', 'used'],
      [new PayloadTooLargeError(), 413, 'payload_too_large', 'PayloadTooLargeError', 'request body is larger than 1 MiB'],
      [
        new UnsupportedMediaTypeError(),
        415,
        'unsupported_media_type',
        'UnsupportedMediaTypeError',
        'request body must be application/json',
      ],
      [new TooManyRequestsError('slow down', 7), 429, 'too_many_requests', 'TooManyRequestsError', 'slow down'],
    ];
    for (const [error, status, code, name, message] of cases) {
      expect(error).toBeInstanceOf(DomainError);
      expect({ status: error.status, code: error.code, name: error.name, message: error.message }).toEqual({ status, code, name, message });
    }
  });

  it('takes a code of its own for a case callers tell apart, and keeps the cause', () => {
    const cause = new Error('the store said no');
    const taken = new ConflictError('an account with this email already exists', { code: 'email_taken', cause });
    expect(taken.code).toBe('email_taken');
    expect(taken.status).toBe(409);
    expect(taken.cause).toBe(cause);
    expect(hasErrorCode(taken, 'email_taken')).toBe(true);
    expect(hasErrorCode(new ConflictError('an account with this email already exists'), 'email_taken')).toBe(false);
    expect(hasErrorCode(Object.assign(new Error('x'), { code: 'email_taken' }), 'email_taken')).toBe(false);
  });

  it('answers { error, details } for a validation error, { ...extra, error } for a refused budget, { error } for the rest', () => {
    const details = [{ path: 'name', message: 'must not be empty' }];
    expect(clientErrorOf(new ValidationError('invalid request body', details))).toEqual({
      status: 400,
      body: { error: 'invalid request body', details },
    });
    expect(clientErrorOf(new ValidationError('invalid query string'))?.body).toEqual({ error: 'invalid query string', details: [] });
    const budget = { name: 'Day', spent_usd: 2 };
    expect(clientErrorOf(new PaymentRequiredError('budget exceeded', { budget, error: 'not this' }))).toEqual({
      status: 402,
      body: { budget, error: 'budget exceeded' },
    });
    expect(new TooManyRequestsError('slow down', 7).retryAfterSeconds).toBe(7);
    expect(clientErrorOf(new ConflictError('taken', { code: 'email_taken' }))).toEqual({ status: 409, body: { error: 'taken' } });
    expect(clientErrorOf(new Error('boom'))).toBeUndefined();
  });
});

describe('scimTypeOf', () => {
  it('answers a taken address with uniqueness by its code, whatever its message', () => {
    expect(scimTypeOf(new ConflictError('ana@acme.test already has an account', { code: 'email_taken' }))).toBe('uniqueness');
    // The very text SCIM once compared, on a conflict without the code: no scimType.
    expect(scimTypeOf(new ConflictError('an account with this email already exists'))).toBeUndefined();
  });

  it('answers team name and default team conflicts with uniqueness, the last admin’s and a missing user without one', () => {
    expect(scimTypeOf(new ConflictError('a team named "x" already exists', { code: 'team_name_taken' }))).toBe('uniqueness');
    expect(scimTypeOf(new ConflictError("the organisation's default team cannot be removed", { code: 'default_team_kept' }))).toBe(
      'uniqueness',
    );
    expect(scimTypeOf(new ConflictError('this would leave the organisation without an active admin'))).toBeUndefined();
    expect(scimTypeOf(new NotFoundError('user usr_1 not found'))).toBeUndefined();
    expect(scimTypeOf(new UnauthorizedError('invalid SCIM token'))).toBeUndefined();
    expect(scimTypeOf(new Error('boom'))).toBeUndefined();
  });

  it('answers each of its refusals with 400 and the scimType of its code', () => {
    const refusals = [
      ['invalid', 'invalidValue'],
      ['unreadable_body', 'invalidSyntax'],
      ['invalid_filter', 'invalidFilter'],
      ['invalid_path', 'invalidPath'],
      ['immutable', 'mutability'],
      ['no_target', 'noTarget'],
    ] as const;
    for (const [code, scimType] of refusals) {
      const refusal = scimRefusal(code, 'why');
      expect({ status: refusal.status, message: refusal.message, scimType: scimTypeOf(refusal) }).toEqual({
        status: 400,
        message: 'why',
        scimType,
      });
    }
  });
});

describe('notConnected', () => {
  it('fails the posts of an unconnected team chat with code not_connected and the reason jobs show', async () => {
    const unconnected = new UnconnectedChat();
    await expect(unconnected.postInThread()).rejects.toMatchObject({
      code: 'not_connected',
      message: 'team-chat is not connected for this organisation',
    });
    expect(notConnected('no chat_bot_token').message).toBe('team-chat is not connected for this organisation (no chat_bot_token)');
  });
});
