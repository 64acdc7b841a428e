// What a session remembers of the client that created it (docs/accounts.md): its User-Agent, made
// safe to store and show (http/user-agent.ts), and its IP address as seen under TRUST_PROXY.
import type { TokenOrigin } from '../../auth/token-queries.ts';
import { storedUserAgent } from '../../http/user-agent.ts';

export function sessionOrigin(userAgentHeader: string | undefined, ip: string): TokenOrigin {
  return { userAgent: storedUserAgent(userAgentHeader), ipAddress: ip || null };
}
