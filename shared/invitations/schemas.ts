import { z } from '@hono/zod-openapi';
import { displayName, emailAddress, isoTimestamp, password } from '../http/schemas.js';
import { OrgRoleSchema, UserSchema } from '../org/index.js';

/** How long an invitation's link works, in hours: 72 unless said, at most two weeks. */
export const INVITATION_HOURS = { default: 72, max: 336 } as const;

export const CreateInvitationBody = z
  .object({
    email: emailAddress,
    org_role: OrgRoleSchema,
    expires_in_hours: z
      .number()
      .int('must be a whole number of hours')
      .min(1, 'must be at least 1 hour')
      .max(INVITATION_HOURS.max, `must be at most ${INVITATION_HOURS.max} hours (two weeks)`)
      .optional()
      .openapi({ description: `hours the link works; default ${INVITATION_HOURS.default}` }),
  })
  .openapi('CreateInvitationRequest');
export type CreateInvitationInput = z.infer<typeof CreateInvitationBody>;

export const InvitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    org_role: OrgRoleSchema,
    created_at: isoTimestamp,
    expires_at: isoTimestamp,
    invited_by: z.string().openapi({ description: 'the name of the admin who invited' }),
  })
  .openapi('Invitation');
export type Invitation = z.infer<typeof InvitationSchema>;

export const CreatedInvitationSchema = InvitationSchema.extend({
  url: z.string().openapi({ description: 'the link to send: it holds the one-time token, shown only now' }),
}).openapi('CreatedInvitation');

export const InvitationIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'inv_0mwr8k9x0000a1b2c3d4e5f60718' }),
});

export const InvitationTokenParams = z.object({
  token: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'token', in: 'path' } }),
});

export const InvitationViewSchema = z
  .object({ org_name: z.string(), email: z.string(), org_role: OrgRoleSchema, expires_at: isoTimestamp })
  .openapi('InvitationView');

export const AcceptInvitationBody = z.object({ name: displayName(), password }).openapi('AcceptInvitationRequest');
export type AcceptInvitationInput = z.infer<typeof AcceptInvitationBody>;

export const AcceptInvitationResponse = z.object({ user: UserSchema }).openapi('AcceptInvitationResponse');
