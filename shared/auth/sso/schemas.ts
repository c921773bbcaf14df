import { z } from '@hono/zod-openapi';

/*
 * Single sign-on of an organisation (CONTRACT.md, "Single sign-on and provisioning"): its OpenID
 * provider, the e-mail domains that sign in through it, and what a first sign-in makes of a person.
 */

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'an e-mail domain, such as example.com');

export const SsoConfigBody = z
  .object({
    issuer: z.string().url('must be the provider’s issuer URL').max(500),
    client_id: z.string().min(1).max(500),
    client_secret: z.string().min(1).max(2_000),
    domains: z.array(domain, { error: 'must be a list of e-mail domains' }).min(1, 'at least one domain').max(20),
    default_role: z.enum(['member', 'admin'], { error: 'must be member or admin' }),
    required: z.boolean({ error: 'must be true or false' }),
    admin_group: z.string().min(1).max(200).optional(),
    groups_claim: z
      .string()
      .regex(/^[A-Za-z0-9_.:/-]{1,100}$/, 'a claim name')
      .optional(),
  })
  .strict()
  .openapi('SsoConfigInput');
export type SsoConfigInput = z.infer<typeof SsoConfigBody>;

export const SsoSchema = z
  .object({
    issuer: z.string(),
    client_id: z.string(),
    client_secret: z.string().openapi({ description: 'masked' }),
    domains: z.array(z.string()),
    default_role: z.enum(['member', 'admin']),
    required: z.boolean(),
    admin_group: z.string().nullable(),
    groups_claim: z.string().nullable(),
    configured_by: z.string().openapi({ description: 'the admin who configured it: still signs in with a password when it is required' }),
    redirect_uri: z.string().openapi({ description: 'the URI to register with the provider' }),
  })
  .openapi('Sso');
export type Sso = z.infer<typeof SsoSchema>;

export const SsoTestBody = SsoConfigBody.pick({ issuer: true, client_id: true }).strict().openapi('SsoTest');
export const SsoTestResponse = z
  .object({ ok: z.boolean(), issuer: z.string().optional(), authorization_endpoint: z.string().optional(), error: z.string().optional() })
  .openapi('SsoTestResult');

export const SsoStartQuery = z.object({ email: z.string().trim().toLowerCase().email('must be an e-mail address').max(320) });
export const SsoCallbackQuery = z.object({
  state: z.string().min(1).max(500).optional(),
  code: z.string().min(1).max(4_000).optional(),
  error: z.string().max(500).optional(),
  iss: z.string().max(500).optional(),
});
