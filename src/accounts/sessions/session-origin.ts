// What a session remembers of the client that created it (docs/accounts.md): its User-Agent, made
// safe to store and show (http/user-agent.ts), and its IP address as seen under TRUST_PROXY; and
// how the sign-in came (the web client or another client of the API), for the security log.
import type { FastifyRequest } from 'fastify';
import { viaOf, type RequestVia } from '../../activity/activity-events.ts';
import type { TokenOrigin } from '../../auth/token-queries.ts';
import { storedUserAgent } from '../../http/user-agent.ts';

/** The client a sign-in request came from, as its route read it. */
export interface Origin {
  ip: string;
  /** The User-Agent header, remembered with the session. */
  userAgent: string | undefined;
  via: RequestVia;
}

export interface SessionOrigin extends TokenOrigin {
  via: RequestVia;
}

export function originOf(request: FastifyRequest): Origin {
  return { ip: request.ip, userAgent: request.headers['user-agent'], via: viaOf(request) };
}

export function sessionOrigin(origin: Origin): SessionOrigin {
  return { userAgent: storedUserAgent(origin.userAgent), ipAddress: origin.ip || null, via: origin.via };
}
