/**
 * The parts of `oidc-provider` (no types of its own) that the MCP gateway's authorization server
 * (shared/oauth) and the tests' OpenID provider (test/support/oidc-provider.ts) use.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface KoaContext {
    path: string;
    status: number;
    req: IncomingMessage;
    res: ServerResponse;
    type: string;
    body: unknown;
    redirect(url: string): void;
  }

  export type KoaContextWithOIDC = KoaContext;

  /** What an adapter stores of a model: the provider's JSON payload. */
  export interface AdapterPayload {
    grantId?: string;
    uid?: string;
    consumed?: number;
    [key: string]: unknown;
  }

  /** The storage of one model (`new Adapter('AccessToken')`). */
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface Interaction {
    uid: string;
    params: Record<string, unknown>;
    exp: number;
    returnTo: string;
    result?: Record<string, unknown>;
    save(ttlSeconds: number): Promise<string>;
  }

  export interface Client {
    clientId: string;
    clientName?: string;
    redirectUris: string[];
    grantTypeAllowed(type: string): boolean;
  }

  class Grant {
    static find(id: string): Promise<Grant | undefined>;
    constructor(options: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  /** Configuration, loosely: the gateway's (shared/oauth/provider.ts) is checked by the provider when it starts. */
  export type Configuration = Record<string, unknown>;

  class OidcError extends Error {
    constructor(description?: string);
  }

  export const errors: { InvalidGrant: typeof OidcError; InvalidTarget: typeof OidcError };

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    Grant: typeof Grant;
    Interaction: { find(uid: string): Promise<Interaction | undefined> };
    Client: { find(id: string): Promise<Client | undefined>; prototype: { redirectUriAllowed(value: string): boolean } };
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    on(event: string, listener: (ctx: KoaContext | unknown, detail: unknown) => void): void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: Record<string, unknown>,
    ): Promise<string>;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
