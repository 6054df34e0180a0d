/**
 * @module Who a request comes from, for per-client budgets. The address is read from `x-real-ip`, which
 * Vercel's edge sets to the connecting client (overwriting any value the client sent) and which the local
 * server sets from the socket (server/node-http.ts), so a client cannot pick its own identity by sending
 * forwarding headers.
 */

/**
 * Budget key for a client address. IPv6 clients are keyed by their /64 network: one subscriber usually
 * holds a whole /64 and could otherwise rotate addresses for a fresh budget each time.
 */
export function clientKey(address: string): string {
  const ip = address
    .trim()
    .toLowerCase()
    .replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (!ip.includes(':')) return ip || 'unknown';
  const [head = '', tail = ''] = ip.replace(/%.*$/, '').split('::', 2);
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = ip.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return ip.slice(0, 64);
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The budget key of the client that sent `request`. */
export function clientOf(request: Request): string {
  return clientKey(request.headers.get('x-real-ip') ?? '');
}
