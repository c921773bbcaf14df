import { createRoute, z } from '@hono/zod-openapi';
import { ADMINS, onApi } from '../http/placement.js';
import { StatusOkSchema, adminErrors, jsonResponse } from '../http/schemas.js';
import { ScimStatusSchema, ScimTokenResponse } from './schemas.js';

const tags = ['provisioning'];

/** The organisation's SCIM provisioning, as its admins set it up (the SCIM endpoints are `/scim/v2`, outside this document). */
export const scimRouteDefinitions = {
  status: onApi(
    ADMINS,
    createRoute({
      method: 'get',
      path: '/org/scim',
      tags,
      summary: "The SCIM base URL to give the identity provider, whether a token exists, and the provider's last call",
      responses: { 200: jsonResponse(z.object({ scim: ScimStatusSchema }), 'the provisioning state'), ...adminErrors },
    }),
  ),
  createToken: onApi(
    ADMINS,
    createRoute({
      method: 'post',
      path: '/org/scim/token',
      tags,
      summary: 'A new SCIM bearer token, shown this once; the previous token stops working',
      responses: { 201: jsonResponse(ScimTokenResponse, 'the token and the provisioning state'), ...adminErrors },
    }),
  ),
  deleteToken: onApi(
    ADMINS,
    createRoute({
      method: 'delete',
      path: '/org/scim/token',
      tags,
      summary: 'Turn provisioning off: the token stops working; provisioned users and teams stay',
      responses: { 200: jsonResponse(StatusOkSchema, 'removed'), ...adminErrors },
    }),
  ),
};
