/**
 * The parts of `oidc-provider` (no types of its own) the tests' OpenID provider uses
 * (test/support/oidc-provider.ts).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface KoaContext {
    path: string;
    status: number;
    req: IncomingMessage;
    res: ServerResponse;
    redirect(url: string): void;
  }

  interface Interaction {
    uid: string;
    params: Record<string, unknown>;
  }

  class Grant {
    constructor(options: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: typeof Grant;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
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
