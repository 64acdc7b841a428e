// The part of oidc-provider's API the tests use (the package ships no types).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ClientLike {
    clientId: string;
    grantTypeAllowed(type: string): boolean;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        issueRefreshToken?: (ctx: unknown, client: ClientLike, code: unknown) => Promise<boolean>;
        findAccount?: (ctx: unknown, sub: string) => Promise<{ accountId: string; claims(): Promise<Record<string, unknown>> }>;
      },
    );
    Client: { prototype: { compareClientSecret(this: ClientLike, actual: string): boolean | Promise<boolean> } };
    on(event: string, listener: (ctx: unknown, ...rest: unknown[]) => void): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
