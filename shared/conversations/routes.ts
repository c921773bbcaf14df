import type { Deps } from '../deps.js';
import { createRouter } from '../http/router.js';
import { getConversation } from './detail.js';
import { changeConversation, hideConversation } from './history.js';
import { raterOf, recordFeedback } from './feedback.js';
import { closeConversation } from './lifecycle.js';
import { listConversations } from './list.js';

// A session, or the Bearer key of the workspace's api consumer.
import { conversationRouteDefinitions as routes } from './route-definitions.js';

export function conversationRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.list.route, async (c) =>
      c.json(await listConversations(deps, c.get('principal'), c.req.valid('param').id, c.req.valid('query')), 200),
    )
    .openapi(routes.detail.route, async (c) => {
      const { id, cid } = c.req.valid('param');
      return c.json(await getConversation(deps, c.get('principal'), id, cid), 200);
    })
    .openapi(routes.change.route, async (c) => {
      const { id, cid } = c.req.valid('param');
      return c.json({ conversation: await changeConversation(deps, c.get('principal'), id, cid, c.req.valid('json')) }, 200);
    })
    .openapi(routes.hide.route, async (c) => {
      const { id, cid } = c.req.valid('param');
      await hideConversation(deps, c.get('principal'), id, cid);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(routes.close.route, async (c) => {
      const { id, cid } = c.req.valid('param');
      const principal = c.get('principal');
      await closeConversation(deps, principal.orgId, id, cid, principal);
      return c.json({ status: 'closed' as const, message: `Conversation ${cid} is closed; its statistics are being generated` }, 200);
    })
    .openapi(routes.feedback.route, async (c) => {
      const { id, cid, seq } = c.req.valid('param');
      const { rating, comment } = c.req.valid('json');
      const principal = c.get('principal');
      // Only a conversation the caller reads (conversations/visibility.ts); another's is 404.
      const rater = raterOf(principal);
      await recordFeedback(deps, {
        orgId: principal.orgId,
        workspaceId: id,
        conversationId: cid,
        seq,
        rater,
        rating,
        comment,
        reader: principal,
      });
      return c.json({ status: 'ok' as const }, 200);
    });
}
