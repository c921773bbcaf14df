/**
 * Who calls: session cookies, sessions and their cache, the organisation's single sign-on settings and
 * the token helpers the other domains sign and check with.
 *
 * The public file of `shared/auth/`: other domains import this file (or a file it names `@public`) and
 * nothing else of the folder (docs/architecture.md, "Layers"; `npm run layers` checks it).
 */
export * from './cookie.js';
export * from './sessions.js';
export * from './sso/config.js';
export * from './tokens.js';
