/**
 * Team chat's records: bound channels and links, who a chat person is, consumers of chat, mrkdwn and the
 * notifier port the jobs post through.
 *
 * @public ./web.js — the Slack Web API client, imported on its own (lazily by the notifier, at start
 * by the bridge), so the bundles that only read chat bindings never load the Web API.
 *
 * The public file of `shared/chat/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './channel-approvals.js';
export * from './consumers.js';
export * from './entities.js';
export * from './identity.js';
export * from './links.js';
export * from './mrkdwn.js';
export * from './notifier-port.js';
