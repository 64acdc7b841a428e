// What a session remembers of the client that created it (contract §9): its User-Agent, made
// safe to store and show (the text rule of every body: no control characters, no unpaired
// surrogates; at most 255 characters), and its IP address as seen under TRUST_PROXY.
import type { TokenOrigin } from '../../auth/token-queries.ts';

export const USER_AGENT_MAX_LENGTH = 255;

// C0 and C1 controls, and DEL: a header's bytes arrive as Latin-1 characters.
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/g;

export function sessionOrigin(userAgentHeader: string | undefined, ip: string): TokenOrigin {
  const userAgent = userAgentHeader?.replace(CONTROL_CHARACTERS, '').trim().slice(0, USER_AGENT_MAX_LENGTH).toWellFormed();
  return { userAgent: userAgent || null, ipAddress: ip || null };
}
