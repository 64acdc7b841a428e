// The client a per-IP limit counts: an IPv4 address as it is, an IPv6 client by its /64. One
// IPv6 subscriber or server is usually given a whole /64 (often more), so counting per /128
// would hand it 2^64 budgets; a /64 is the smallest block one party cannot cheaply multiply.
// An IPv4-mapped IPv6 address (::ffff:203.0.113.7, a dual-stack socket's IPv4 client) is the
// IPv4 address it maps.
import { isIPv4, isIPv6 } from 'node:net';

/** The key a per-IP limit counts `ip` under: IPv4 as is, IPv6 as its /64 (`2001:db8:1:2::/64`). */
export function clientNetwork(ip: string): string {
  if (isIPv4(ip)) return ip;
  const address = ip.split('%')[0]!;
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded and a dotted IPv4 tail read. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}
