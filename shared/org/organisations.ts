import type { Deps } from '../deps.js';
import { NotFoundError } from '../platform/errors.js';
import { type OrganisationItem, organisationKey, renameOrganisationUpdate } from './entities.js';
import type { Organisation } from './schemas.js';

export type { OrganisationItem } from './entities.js';

export function toOrganisation(item: OrganisationItem): Organisation {
  return { id: item.id, name: item.name, slug: item.slug, created_at: item.created_at };
}

export async function getOrganisationItem(deps: Deps, orgId: string): Promise<OrganisationItem> {
  const item = await deps.table.get<OrganisationItem>(organisationKey(orgId));
  if (!item) throw new NotFoundError('organisation not found');
  return item;
}

export async function getOrganisation(deps: Deps, orgId: string): Promise<Organisation> {
  return toOrganisation(await getOrganisationItem(deps, orgId));
}

/** Renames the organisation. Its slug stays, so links and ids made from it keep working. */
export async function renameOrganisation(deps: Deps, orgId: string, name: string): Promise<Organisation> {
  const { key, input } = renameOrganisationUpdate(orgId, name);
  const item = await deps.table.update<OrganisationItem>(key, input);
  return toOrganisation(item);
}
