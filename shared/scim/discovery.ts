import { MAX_COUNT } from './paging.js';
import { SCHEMA } from './schemas.js';

/** `GET /ServiceProviderConfig` (RFC 7643 §5): what this SCIM service supports, which providers read before syncing. */
export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SCHEMA.serviceProvider],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_COUNT },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      { type: 'oauthbearertoken', name: 'Bearer token', description: 'The token made under Organisation → Provisioning', primary: true },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

/** `GET /ResourceTypes` (RFC 7643 §6): Users and Groups. */
export function resourceTypes(baseUrl: string) {
  const type = (name: 'User' | 'Group', endpoint: string, schema: string) => ({
    schemas: [SCHEMA.resourceType],
    id: name,
    name,
    endpoint,
    schema,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${name}` },
  });
  const resources = [type('User', '/Users', SCHEMA.user), type('Group', '/Groups', SCHEMA.group)];
  return { schemas: [SCHEMA.list], totalResults: resources.length, startIndex: 1, itemsPerPage: resources.length, Resources: resources };
}
