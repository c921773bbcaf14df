import { serviceModelKey, listModels } from '../models/index.js';
import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import {
  getOrganisation,
  renameOrganisation,
  deleteSetting,
  listSettings,
  putSetting,
  createTeam,
  listTeams,
  createUser,
  listUsers,
  setUserPassword,
} from '../org/index.js';
import { describeModelKey } from './model-key.js';
import { changeUserRole, removeUser } from './standing.js';

import { orgRouteDefinitions as routes } from './route-definitions.js';

export function orgRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.getOrg.route, async (c) => c.json({ org: await getOrganisation(deps, orgIdOf(c)) }, 200))
    .openapi(routes.putOrg.route, async (c) => {
      const org = await renameOrganisation(deps, orgIdOf(c), c.req.valid('json').name);
      return c.json({ org }, 200);
    })
    .openapi(routes.listSettings.route, async (c) =>
      c.json({ ...(await listSettings(deps, orgIdOf(c))), service_model_key: serviceModelKey(deps.config) !== undefined }, 200),
    )
    .openapi(routes.putSetting.route, async (c) => {
      await putSetting(deps, orgIdOf(c), c.req.valid('param').key, c.req.valid('json').value);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(routes.deleteSetting.route, async (c) => {
      await deleteSetting(deps, orgIdOf(c), c.req.valid('param').key);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(routes.getModelKey.route, async (c) => c.json(await describeModelKey(deps, orgIdOf(c)), 200))
    .openapi(routes.listUsers.route, async (c) => c.json({ users: await listUsers(deps, orgIdOf(c)) }, 200))
    .openapi(routes.createUser.route, async (c) => {
      const user = await createUser(deps, orgIdOf(c), c.req.valid('json'));
      return c.json({ user }, 201);
    })
    .openapi(routes.updateUser.route, async (c) => {
      const user = await changeUserRole(deps, c.get('principal'), c.req.valid('param').id, c.req.valid('json').org_role);
      return c.json({ user }, 200);
    })
    .openapi(routes.setUserPassword.route, async (c) => {
      const user = await setUserPassword(deps, c.get('principal'), c.req.valid('param').id, c.req.valid('json').password);
      return c.json({ user }, 200);
    })
    .openapi(routes.deleteUser.route, async (c) => {
      await removeUser(deps, c.get('principal'), c.req.valid('param').id);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(routes.listTeams.route, async (c) => c.json({ teams: await listTeams(deps, orgIdOf(c)) }, 200))
    .openapi(routes.createTeam.route, async (c) => {
      const team = await createTeam(deps, orgIdOf(c), c.req.valid('json').name);
      return c.json({ team }, 201);
    })
    .openapi(routes.listModels.route, (c) => c.json({ models: listModels() }, 200));
}
