// Loopback names and addresses: what a request's Host must name for the pages meant for one's
// own machine only (the development inbox). Checking the Host, not only the listening address,
// keeps a page of a hostile site out: through DNS rebinding its name may point at 127.0.0.1,
// but the browser still sends that name as the Host.
import type { FastifyRequest } from 'fastify';

/** `localhost`, 127.x.y.z or ::1 (bracketed or not). */
export function isLoopbackName(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** A Host header's name, less its port: `[::1]:8000` → `[::1]`, `localhost:8000` → `localhost`. */
function nameOf(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
}

/** Whether the request's Host (and the forwarded host, where TRUST_PROXY lets one count) is a loopback name. */
export function toLoopbackHost(request: FastifyRequest): boolean {
  const hosts = [request.headers.host, request.host];
  return hosts.every((host) => typeof host === 'string' && isLoopbackName(nameOf(host)));
}
