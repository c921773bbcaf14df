import { startSession } from '../auth/index.js';
import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { toUser } from '../org/index.js';
import { acceptInvitation, createInvitation, listInvitations, revokeInvitation, viewInvitation } from './invitations.js';
import { invitationRouteDefinitions as routes } from './route-definitions.js';

/** `/api/org/invitations` (admins) and the links they make (`/api/invitations/:token`, public). */
export function invitationRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.create.route, async (c) => {
      const baseUrl = deps.config.publicBaseUrl ?? new URL(c.req.url).origin;
      return c.json({ invitation: await createInvitation(deps, c.get('principal'), c.req.valid('json'), baseUrl) }, 201);
    })
    .openapi(routes.list.route, async (c) => c.json({ invitations: await listInvitations(deps, orgIdOf(c)) }, 200))
    .openapi(routes.revoke.route, async (c) => {
      await revokeInvitation(deps, orgIdOf(c), c.req.valid('param').id);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(routes.view.route, async (c) => c.json(await viewInvitation(deps, c.req.valid('param').token), 200))
    .openapi(routes.accept.route, async (c) => {
      const user = await acceptInvitation(deps, c.req.valid('param').token, c.req.valid('json'));
      await startSession(deps, c, user);
      return c.json({ user: toUser(user) }, 201);
    });
}
