import { describe, expect, it } from 'vitest';
import { clientKey, clientOf } from '../../src/core/client.ts';

describe('client identity', () => {
  it('keys IPv4 by address and IPv6 by its /64 network', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('')).toBe('unknown');
  });

  it('reads the platform header, never X-Forwarded-For', () => {
    const r = new Request('http://x/', { headers: { 'x-real-ip': '198.51.100.4', 'x-forwarded-for': '1.2.3.4' } });
    expect(clientOf(r)).toBe('198.51.100.4');
    expect(clientOf(new Request('http://x/', { headers: { 'x-forwarded-for': '1.2.3.4' } }))).toBe('unknown');
  });
});
