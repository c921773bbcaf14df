import { z } from '@hono/zod-openapi';
import { displayName, emailAddress, isoTimestamp, password } from '../http/schemas.js';
import { OrganisationSchema, OrgRoleSchema, UserSchema } from '../org/index.js';

export const SignupBody = z
  .object({ name: displayName(), email: emailAddress, password, org_name: displayName().optional() })
  .openapi('SignupRequest');
export type SignupInput = z.infer<typeof SignupBody>;

export const SignupStateSchema = z
  .object({
    mode: z.enum(['open', 'invite', 'closed']).openapi({ description: 'SIGNUP_MODE: who may sign up' }),
    first: z.boolean().openapi({ description: 'nobody has signed up yet: a fresh install, where the console opens on sign-up' }),
  })
  .openapi('SignupState');

export const LoginBody = z
  // Login checks only shape: any stored password verifies or not; the rules apply when setting one.
  .object({ email: z.string().trim().toLowerCase().min(1).max(254), password: z.string().min(1).max(256) })
  .openapi('LoginRequest');

export const SignupResponse = z.object({ user: UserSchema, org: OrganisationSchema }).openapi('SignupResponse');
export const LoginResponse = z.object({ user: UserSchema }).openapi('LoginResponse');

export const SessionSchema = z
  .object({
    user: z.object({ id: z.string(), email: z.string(), name: z.string(), role: OrgRoleSchema, org_id: z.string() }),
    expires_at: isoTimestamp,
  })
  .nullable()
  .openapi('Session');

export const ProfileSchema = z
  .object({
    user: UserSchema,
    has_password: z.boolean().openapi({ description: 'False for a user single sign-on made: they sign in with their identity provider' }),
  })
  .openapi('Profile');

export const UpdateProfileBody = z.object({ name: displayName() }).openapi('UpdateProfileRequest');

export const ChangePasswordBody = z
  // The current one is checked, not validated: any stored password verifies or not.
  .object({ current_password: z.string().min(1, 'enter your current password').max(256), new_password: password })
  .openapi('ChangePasswordRequest');
export type ChangePasswordInput = z.infer<typeof ChangePasswordBody>;
