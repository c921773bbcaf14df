import { DomainError, ValidationError, type ErrorCode } from '../platform/errors.js';

/*
 * A SCIM error answer (RFC 7644 §3.12): `{ schemas: [Error], status, scimType?, detail }`, with its
 * HTTP status. Identity providers read `status` and `scimType` (a 409 `uniqueness` makes them look
 * the user up instead of creating them again). SCIM code throws the service's domain errors; the
 * handler (`protocol-routes.ts`) answers their status and message, with the `scimType` of their code.
 */
export type ScimType = 'invalidFilter' | 'invalidPath' | 'invalidValue' | 'invalidSyntax' | 'uniqueness' | 'mutability' | 'noTarget';

/** The `scimType` of each code that has one; an error of any other code is answered without. */
const SCIM_TYPES: Partial<Record<ErrorCode, ScimType>> = {
  invalid: 'invalidValue',
  unreadable_body: 'invalidSyntax',
  invalid_filter: 'invalidFilter',
  invalid_path: 'invalidPath',
  immutable: 'mutability',
  no_target: 'noTarget',
  email_taken: 'uniqueness',
  team_name_taken: 'uniqueness',
  // RFC 7644 §3.12: `uniqueness` is a value "already in use or reserved"; the default team is reserved.
  default_team_kept: 'uniqueness',
};

/** The `scimType` an error is answered with, if any. */
export function scimTypeOf(error: unknown): ScimType | undefined {
  return error instanceof DomainError ? SCIM_TYPES[error.code] : undefined;
}

type ScimRefusalCode = 'invalid' | 'unreadable_body' | 'invalid_filter' | 'invalid_path' | 'immutable' | 'no_target';

/** A SCIM request refused with 400; `code` chooses its `scimType`. */
export function scimRefusal(code: ScimRefusalCode, detail: string): ValidationError {
  return new ValidationError(detail, [], { code });
}
