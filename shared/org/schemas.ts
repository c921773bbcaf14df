import { z } from '@hono/zod-openapi';
import { displayName, emailAddress, isoTimestamp, password } from '../http/schemas.js';

export const OrgRoleSchema = z.enum(['admin', 'member']).openapi('OrgRole');

export const OrganisationSchema = z
  .object({ id: z.string(), name: z.string(), slug: z.string(), created_at: isoTimestamp })
  .openapi('Organisation');
export type Organisation = z.infer<typeof OrganisationSchema>;

export const UserSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    org_role: OrgRoleSchema,
    active: z.boolean().openapi({ description: 'False once the identity provider deactivated the user (SCIM): they cannot sign in' }),
    created_at: isoTimestamp,
  })
  .openapi('User');
export type User = z.infer<typeof UserSchema>;

export const TeamSchema = z.object({ id: z.string(), name: z.string() }).openapi('Team');
export type Team = z.infer<typeof TeamSchema>;

export const UpdateOrgBody = z.object({ name: displayName() }).openapi('UpdateOrgRequest');

export const CreateUserBody = z
  .object({ name: displayName(), email: emailAddress, password, org_role: OrgRoleSchema })
  .openapi('CreateUserRequest');
export type CreateUserInput = z.infer<typeof CreateUserBody>;

export const SetUserPasswordBody = z.object({ password }).openapi('SetUserPasswordRequest');

export const UpdateUserBody = z.object({ org_role: OrgRoleSchema }).openapi('UpdateUserRequest');

export const UserParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'usr_0mwr8k9x0000a1b2c3d4e5f60718' }),
});

export const CreateTeamBody = z.object({ name: displayName() }).openapi('CreateTeamRequest');

export const SettingKeyParams = z.object({
  key: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/, 'setting keys match ^[a-z][a-z0-9_]{0,63}$')
    .openapi({ param: { name: 'key', in: 'path' }, example: 'ai_provider' }),
});

export const PutSettingBody = z
  .object({ value: z.string().min(1, 'must not be empty').max(8192, 'must be at most 8192 characters') })
  .openapi('PutSettingRequest');

export const SettingsSchema = z
  .object({
    settings: z.record(z.string(), z.string()),
    configured: z.record(z.string(), z.boolean()),
    service_model_key: z.boolean().openapi({
      description:
        "whether the service's own model key (ANTHROPIC_API_KEY, lent with ALLOW_SERVICE_MODEL_KEY) answers while ai_api_key is not set",
    }),
  })
  .openapi('Settings');

export const ModelSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    provider: z.string(),
    model: z.string(),
    input_cost_per_mtok: z.number(),
    output_cost_per_mtok: z.number(),
    default: z.boolean(),
  })
  .openapi('Model');
