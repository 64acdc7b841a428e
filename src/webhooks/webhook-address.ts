// Where a webhook may be sent (docs/webhooks.md): an `https://` URL whose host, once resolved,
// is a public address. Checked when an endpoint is saved and again at every delivery, on the
// addresses the name resolves to then; the delivery connects to the address checked, so a
// second resolution cannot swap it. WEBHOOK_ALLOW_PRIVATE=true lets `http://` and private
// addresses through (development and tests).
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { type Message, message } from '../errors.ts';
import { writeMessage } from '../http/error-language.ts';

const refused = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  refused.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64
  ['100::', 64], // discard
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['fd00:ec2::254', 128], // AWS metadata over IPv6 (inside fc00::/7 already)
] as const) {
  refused.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP address is one a webhook may not reach without WEBHOOK_ALLOW_PRIVATE. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  // IPv4-mapped IPv6 (::ffff:a.b.c.d), whatever the IPv4 address: BlockList would match a mapped
  // subnet against every IPv4 address too, so it is checked here.
  if (family === 6 && isMapped(address)) return true;
  return refused.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** ::ffff:a.b.c.d however written (the URL parser gives the short form). */
function isMapped(address: string): boolean {
  return new URL(`http://[${address}]/`).hostname.toLowerCase().startsWith('[::ffff:');
}

/** A URL or address refused; `problem` the sentence for the API, the message its English for logs and deliveries. */
export class RefusedAddress extends Error {
  readonly problem: Message;

  constructor(problem: Message) {
    super(writeMessage(problem, 'en'));
    this.problem = problem;
  }
}

/** The URL's problem as a sentence, or null: syntax and scheme only (no resolution). */
export function urlProblem(raw: string, allowPrivate: boolean): Message | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'webhooks.urlNotAbsolute';
  }
  if (url.username || url.password) return 'webhooks.urlWithCredentials';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && allowPrivate) return null;
  return 'webhooks.urlNotHttps';
}

function hostOf(url: URL): string {
  // An IPv6 literal comes bracketed.
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * The address to connect to for `raw`: its host resolved (every address it resolves to must be
 * public unless `allowPrivate`). Throws RefusedAddress for a refused one; DNS errors as they are.
 */
export async function resolveDeliveryAddress(raw: string, allowPrivate: boolean): Promise<{ address: string; family: 4 | 6 }> {
  const problem = urlProblem(raw, allowPrivate);
  if (problem) throw new RefusedAddress(problem);
  const host = hostOf(new URL(raw));
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal as 4 | 6 }] : await lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new Error(`${host} resolves to no address`);
  if (!allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) throw new RefusedAddress(message('webhooks.privateAddress', { host, address: bad.address }));
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** The problem with saving `raw` as an endpoint's URL, or null. A name that does not resolve now is accepted (it is checked at every delivery). */
export async function endpointUrlProblem(raw: string, allowPrivate: boolean): Promise<Message | null> {
  try {
    await resolveDeliveryAddress(raw, allowPrivate);
    return null;
  } catch (error) {
    if (error instanceof RefusedAddress) return error.problem;
    return null;
  }
}
