/**
 * @module Who a request comes from, for per-client budgets. The address is read from `x-real-ip`, which
 * Vercel's edge sets to the connecting client (overwriting any value the client sent) and which the local
 * server sets from the socket (server/node-http.ts), so a client cannot pick its own identity by sending
 * forwarding headers. With TRUST_PROXY=1 the local server takes `X-Forwarded-For`'s last hop instead
 * (`forwardedClient`).
 *
 * One address has many spellings (`203.0.113.7:5555`, `203.000.113.007`, `::ffff:203.0.113.7`,
 * `::ffff:cb00:7107`, `[2001:DB8::1]:5555`); each is read as the address it spells (`parseAddress`), so
 * none buys a fresh budget.
 */

/** The four numbers of a dotted IPv4 address (leading zeros read as decimal), or undefined. */
function ipv4Parts(s: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  return parts.every((n) => n <= 255) ? parts : undefined;
}

/** The eight 16-bit groups of an IPv6 address (`::` and a dotted IPv4 tail allowed), or undefined. */
function ipv6Groups(s: string): number[] | undefined {
  if (!/^[0-9a-f:.]+$/.test(s) || s.split('::').length > 2) return undefined;
  let text = s;
  const dot = text.lastIndexOf(':');
  if (text.includes('.')) {
    const v4 = ipv4Parts(text.slice(dot + 1));
    if (!v4) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    text = `${text.slice(0, dot + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail = ''] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const compressed = text.includes('::');
  if (compressed ? left.length + right.length > 7 : left.length !== 8) return undefined;
  const groups = compressed ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.map((g) => Number.parseInt(g, 16));
}

/**
 * The IPv4 address an IPv6 address carries in its last 32 bits, when its prefix says so: IPv4-mapped
 * (`::ffff:0:0/96`), IPv4-translated (`::ffff:0:0:0/96`), IPv4-compatible (`::/96`, except `::` and `::1`)
 * and the NAT64 well-known prefix (`64:ff9b::/96`).
 */
function embeddedIpv4(g: number[]): string | undefined {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const mapped = zeros(0, 5) && g[5] === 0xffff;
  const translated = zeros(0, 4) && g[4] === 0xffff && g[5] === 0;
  const compatible = zeros(0, 6) && g[6] !== 0;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6);
  if (!mapped && !translated && !compatible && !nat64) return undefined;
  const [hi = 0, lo = 0] = g.slice(6);
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

/** RFC 5952 text of eight groups: lower case, no leading zeros, the longest run of 2+ zero groups as `::`. */
function ipv6Text(g: number[]): string {
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = (from: number, to: number) => g.slice(from, to).map((x) => x.toString(16));
  if (best < 0) return hex(0, 8).join(':');
  return `${hex(0, best).join(':')}::${hex(best + bestLength, 8).join(':')}`;
}

/** The IP address `value` spells, normalised (IPv4 dotted decimal, IPv6 RFC 5952 text), or undefined. */
export function parseAddress(value: string): string | undefined {
  // Quotes, brackets, a port and an IPv6 zone go; `007` is 7, never octal; an IPv6 address carrying an IPv4
  // one (mapped, translated, compatible, NAT64) is that IPv4 address, so no spelling buys a fresh budget.
  let s = value.trim().toLowerCase();
  if (s.length > 100) return undefined;
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) s = s.slice(1, -1).trim();
  const port = /^(\[[^\]]*\]|[\d.]+):(\d{1,5})$/.exec(s);
  if (port) {
    if (Number(port[2]) > 65535) return undefined;
    s = port[1] ?? '';
  }
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const v4 = ipv4Parts(s);
  if (v4) return v4.join('.');
  const groups = ipv6Groups(s.replace(/%[^%]*$/, ''));
  if (!groups) return undefined;
  return embeddedIpv4(groups) ?? ipv6Text(groups);
}

/** The client address behind our own proxy (TRUST_PROXY=1): X-Forwarded-For's last hop, else the socket's. */
export function forwardedClient(forwarded: string | readonly string[] | undefined, socket: string): string {
  // Only the last hop is our proxy's: the hops before it are the client's to write.
  const list = typeof forwarded === 'string' ? forwarded : (forwarded ?? []).join(',');
  const hops = list
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  const last = hops.length ? parseAddress(hops[hops.length - 1]!) : undefined;
  return last ?? parseAddress(socket) ?? socket;
}

/** The budget key of a client address: the IPv4 address, the IPv6 /64 network, or `unknown` for no address. */
export function clientKey(address: string): string {
  const ip = parseAddress(address);
  if (!ip) return 'unknown';
  if (!ip.includes(':')) return ip;
  // One subscriber usually holds a whole /64 and could otherwise rotate addresses for a fresh budget.
  const groups = ipv6Groups(ip) ?? [];
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The budget key of the client that sent `request`. */
export function clientOf(request: Request): string {
  return clientKey(request.headers.get('x-real-ip') ?? '');
}
