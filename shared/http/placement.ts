import type { RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { ForbiddenError } from '../platform/errors.js';
import type { AppEnv } from './router.js';

/**
 * Where a route and who may call it, said once beside its definition (docs/architecture.md, "The
 * route table"). Light on purpose: the CDK stack and the API function read the table without the
 * code that serves it.
 */

/** The process that serves a route on AWS: the API function, or the agent function (the query, MCP, team-chat API). */
type Runs = 'api' | 'agent';

/** The consumer key types (docs/api-decisions.md, "Consumers and their keys"). */
export type KeyType = 'api' | 'coding-agent' | 'messaging';

export interface Callers {
  /** With a session: nobody needs one (public), any signed-in user, admins only, or no session at all (keys only). */
  readonly session: 'public' | 'member' | 'admin' | 'none';
  /** The consumer key types that may call it, for their own workspace (or consumer) only. */
  readonly keys: readonly KeyType[];
}

export const PUBLIC: Callers = { session: 'public', keys: [] };
export const MEMBERS: Callers = { session: 'member', keys: [] };
export const ADMINS: Callers = { session: 'admin', keys: [] };
export const MEMBERS_OR_API_KEY: Callers = { session: 'member', keys: ['api'] };
/** An admin's session, or an api key of the workspace (what a team's CI runs evaluations with). */
export const ADMINS_OR_API_KEY: Callers = { session: 'admin', keys: ['api'] };
export const MESSAGING_KEY: Callers = { session: 'none', keys: ['messaging'] };
export const CODING_AGENT_KEY: Callers = { session: 'none', keys: ['coding-agent'] };

export interface PlacedRoute<R extends RouteConfig = RouteConfig> {
  /** The definition: documented in the OpenAPI document, with the callers' security and checks added. */
  readonly route: R;
  readonly runs: Runs;
  readonly callers: Callers;
  /**
   * Served by a hand-written handler rather than `openapi()`: on every method (the coding agent's
   * MCP endpoint speaks JSON-RPC over POST, GET and DELETE), or as the OpenAPI document itself.
   */
  readonly byHand?: 'all-methods' | 'document';
}

/** Admin-only routes: the session's role must be admin (a key's principal is a member). */
const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get('principal').role !== 'admin') throw new ForbiddenError();
  return next();
};

/** Key-only routes: a session is refused before its body is read. */
function requireKey(type: KeyType): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('principal').apiKey?.type !== type) throw new ForbiddenError(`this endpoint takes the Bearer key of a ${type} consumer`);
    return next();
  };
}

function securityOf(callers: Callers): Record<string, string[]>[] | undefined {
  if (callers.session === 'public') return undefined;
  const schemes = callers.session === 'none' ? [] : [{ cookieAuth: [] }];
  return callers.keys.length > 0 ? [...schemes, { apiKey: [] }] : schemes;
}

/** Admin routes that also take consumer keys: an admin's session, or a key of one of these types (already scoped to its workspace). */
function requireAdminOrKey(types: readonly KeyType[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get('principal');
    if (principal.apiKey ? !types.includes(principal.apiKey.type) : principal.role !== 'admin') throw new ForbiddenError();
    return next();
  };
}

function checksOf(callers: Callers): MiddlewareHandler<AppEnv>[] {
  if (callers.session === 'admin') return [callers.keys.length > 0 ? requireAdminOrKey(callers.keys) : requireAdmin];
  if (callers.session === 'none' && callers.keys[0]) return [requireKey(callers.keys[0])];
  return [];
}

function place<R extends RouteConfig>(runs: Runs, callers: Callers, route: R, byHand?: PlacedRoute['byHand']): PlacedRoute<R> {
  const security = securityOf(callers);
  const checks = checksOf(callers);
  const placed = { ...route, ...(security ? { security } : {}), ...(checks.length > 0 ? { middleware: checks } : {}) };
  return { route: placed, runs, callers, ...(byHand ? { byHand } : {}) };
}

/** A route the API function serves. */
export function onApi<R extends RouteConfig>(callers: Callers, route: R, byHand?: PlacedRoute['byHand']): PlacedRoute<R> {
  return place('api', callers, route, byHand);
}

/** A route the agent function serves on AWS (the local runtime serves every route in one process). */
export function onAgent<R extends RouteConfig>(callers: Callers, route: R, byHand?: PlacedRoute['byHand']): PlacedRoute<R> {
  return place('agent', callers, route, byHand);
}
