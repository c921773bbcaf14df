import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { bindChannel, unbindChannel } from './consumers.js';
import { confirmLinkRequest, listChatLinks, showLinkRequest, unlinkChatAccount } from './links.js';
import { chatLinkRouteDefinitions as links, chatRouteDefinitions } from './route-definitions.js';

export function chatRoutes(deps: Deps) {
  return createRouter()
    .openapi(chatRouteDefinitions.bindChannel.route, async (c) => c.json(await bindChannel(deps, orgIdOf(c), c.req.valid('json')), 200))
    .openapi(chatRouteDefinitions.unbindChannel.route, async (c) => {
      await unbindChannel(deps, orgIdOf(c), c.req.valid('param').channel_id);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(links.showLinkRequest.route, async (c) =>
      c.json({ link_request: await showLinkRequest(deps, c.get('principal'), c.req.valid('param').token) }, 200),
    )
    .openapi(links.confirmLinkRequest.route, async (c) =>
      c.json({ link: await confirmLinkRequest(deps, c.get('principal'), c.req.valid('param').token) }, 201),
    )
    .openapi(links.listChatLinks.route, async (c) =>
      c.json({ links: await listChatLinks(deps, c.get('principal'), c.req.valid('query').scope) }, 200),
    )
    .openapi(links.unlinkChatAccount.route, async (c) => {
      await unlinkChatAccount(deps, c.get('principal'), c.req.valid('param').link_id);
      return c.json({ status: 'ok' as const }, 200);
    });
}
