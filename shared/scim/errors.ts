/*
 * A SCIM error answer (RFC 7644 §3.12): `{ schemas: [Error], status, scimType?, detail }`, with its
 * HTTP status. Identity providers read `status` and `scimType` (a 409 `uniqueness` makes them look
 * the user up instead of creating them again).
 */
export type ScimType = 'invalidFilter' | 'invalidPath' | 'invalidValue' | 'invalidSyntax' | 'uniqueness' | 'mutability' | 'noTarget';

export class ScimError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409 | 413 | 415 | 429 | 500,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
    this.name = 'ScimError';
  }
}
