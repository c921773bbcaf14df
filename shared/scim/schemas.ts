import { z } from '@hono/zod-openapi';
import { isoTimestamp } from '../http/schemas.js';
import { CreateUserBody } from '../org/index.js';

/*
 * What SCIM 2.0 clients send (RFC 7643, 7644), as the common identity providers send it: unknown
 * attributes (an enterprise extension, a locale) are ignored, and booleans may come as the strings
 * "True" and "False" (Microsoft Entra ID).
 */

export const SCHEMA = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProvider: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
} as const;

/** A boolean, or the strings "true" / "false" in any case. */
export const scimBoolean = z.union([
  z.boolean(),
  z
    .string()
    .regex(/^(true|false)$/i, 'must be true or false')
    .transform((value) => value.toLowerCase() === 'true'),
]);

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

/**
 * A person's name as the users API takes it (`POST /api/org/users`: no control or invisible format
 * characters, at most 100); an empty or blank one is read as absent, as providers send them.
 */
export const personName = CreateUserBody.shape.name;
const optionalName = z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), personName.optional());

const EmailInput = z.object({ value: text(254), primary: scimBoolean.optional(), type: text(50).optional() });
const NameInput = z.object({ formatted: optionalName, givenName: optionalName, familyName: optionalName });

export const ScimUserInput = z.object({
  userName: text(254).min(1, 'must not be empty'),
  externalId: text(200).optional(),
  active: scimBoolean.optional(),
  displayName: optionalName,
  name: NameInput.optional(),
  emails: z.array(EmailInput).max(20).optional(),
});
export type ScimUserInput = z.infer<typeof ScimUserInput>;

const MemberInput = z.object({ value: text(200).min(1), display: text(300).optional() });
export const ScimMembers = z.array(MemberInput).max(1000, 'at most 1000 members in one request');

export const ScimGroupInput = z.object({
  displayName: text(100).min(1, 'must not be empty'),
  externalId: text(200).optional(),
  members: ScimMembers.optional(),
});
export type ScimGroupInput = z.infer<typeof ScimGroupInput>;

export const ScimPatchInput = z.object({
  Operations: z
    .array(
      z.object({
        op: z
          .string()
          .regex(/^(add|replace|remove)$/i, 'must be add, replace or remove')
          .transform((op) => op.toLowerCase() as 'add' | 'replace' | 'remove'),
        path: text(300).optional(),
        value: z.unknown().optional(),
      }),
    )
    .min(1, 'must hold at least one operation')
    .max(100, 'at most 100 operations in one request'),
});
export type ScimPatchOperation = z.infer<typeof ScimPatchInput>['Operations'][number];

export const ScimListQuery = z.object({
  filter: z.string().max(500).optional(),
  startIndex: z.coerce.number().int().optional(),
  count: z.coerce.number().int().optional(),
  excludedAttributes: z.string().max(200).optional(),
});
export type ScimListQuery = z.infer<typeof ScimListQuery>;

/** `GET /api/org/scim`: the console's Provisioning page. */
export const ScimStatusSchema = z
  .object({
    base_url: z.string().openapi({ description: 'The SCIM base URL to give the identity provider' }),
    token_hint: z.string().nullable().openapi({ description: "The token's first characters, or null when there is none" }),
    token_created_at: isoTimestamp.nullable(),
    last_sync_at: isoTimestamp.nullable().openapi({ description: 'When the provider last called (to the minute)' }),
  })
  .openapi('ScimStatus');
export type ScimStatus = z.infer<typeof ScimStatusSchema>;

export const ScimTokenResponse = z
  .object({
    token: z.string().openapi({ description: 'The bearer token, shown this once; it replaces any previous one' }),
    scim: ScimStatusSchema,
  })
  .openapi('ScimToken');
