import { describe, expect, it } from 'vitest';
import { clientKey, clientOf, forwardedClient, parseAddress } from '../../src/http/client-address.ts';

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

describe('every spelling of an address is one budget', () => {
  const v4 = clientKey('203.0.113.7');
  const v6 = clientKey('2001:db8::1');
  const cases: [string, string][] = [
    ['203.0.113.7:5555', v4],
    [' 203.0.113.7 ', v4],
    ['"203.0.113.7"', v4],
    ['203.000.113.007', v4],
    ['203.000.113.007:80', v4],
    ['::ffff:203.0.113.7', v4],
    ['::FFFF:203.0.113.7', v4],
    ['::ffff:cb00:7107', v4],
    ['0:0:0:0:0:ffff:cb00:7107', v4],
    ['::ffff:203.000.113.007', v4],
    ['[::ffff:203.0.113.7]:5555', v4],
    ['[::ffff:cb00:7107]', v4],
    ['::ffff:0:cb00:7107', v4], // IPv4-translated
    ['::203.0.113.7', v4], // IPv4-compatible
    ['64:ff9b::cb00:7107', v4], // NAT64 well-known prefix
    ['[2001:db8::1]:5555', v6],
    ['[2001:db8::1]', v6],
    ['2001:DB8::1', v6],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', v6],
    ['fe80::1%eth0', clientKey('fe80::1')],
    ['2001:db8::ffff:1', v6], // the same /64
  ];
  for (const [form, key] of cases) {
    it(`${JSON.stringify(form)} -> ${key}`, () => {
      expect(clientKey(form)).toBe(key);
      expect(clientOf(new Request('http://x/', { headers: { 'x-real-ip': form.trim() } }))).toBe(key);
    });
  }

  it('normalises to the plain text of the address', () => {
    expect(parseAddress('203.000.113.007')).toBe('203.0.113.7');
    expect(parseAddress('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(parseAddress('[2001:0DB8:0:0:1:0:0:1]:443')).toBe('2001:db8::1:0:0:1');
    expect(parseAddress('2001:db8:0:1:0:0:0:0')).toBe('2001:db8:0:1::');
    expect(parseAddress('::')).toBe('::');
    expect(parseAddress('::1')).toBe('::1');
    expect(parseAddress('1:2:3:4:5:6:7:8')).toBe('1:2:3:4:5:6:7:8');
  });

  it('refuses what is not an address', () => {
    for (const bad of [
      '',
      'unknown',
      '_hidden',
      '203.0.113.256',
      '203.0.113',
      '203.0.113.7.1',
      '1.2.3.0007',
      '203.0.113.7:99999',
      '2001:db8::1::2',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      '12345::1',
      '[203.0.113.7',
      'localhost',
      `${'1'.repeat(200)}`,
    ]) {
      expect(parseAddress(bad), bad).toBeUndefined();
      expect(clientKey(bad), bad).toBe('unknown');
    }
  });
});

describe('X-Forwarded-For behind a proxy we run (TRUST_PROXY=1)', () => {
  const socket = '::ffff:10.0.0.5';
  it('takes the last hop, the one the proxy appended, normalised', () => {
    expect(forwardedClient('198.51.100.1, 203.0.113.7:5555', socket)).toBe('203.0.113.7');
    expect(forwardedClient('1.1.1.1,[2001:db8::1]:5555', socket)).toBe('2001:db8::1');
    expect(forwardedClient(['9.9.9.9', '203.000.113.007'], socket)).toBe('203.0.113.7');
    expect(forwardedClient('::ffff:cb00:7107', socket)).toBe('203.0.113.7');
    expect(forwardedClient('203.0.113.7, ', socket)).toBe('203.0.113.7');
  });

  it('uses the socket when the header is absent or its last hop is not an address', () => {
    expect(forwardedClient(undefined, socket)).toBe('10.0.0.5');
    expect(forwardedClient('', socket)).toBe('10.0.0.5');
    expect(forwardedClient('203.0.113.7, unknown', socket)).toBe('10.0.0.5');
    expect(forwardedClient('evil-budget-42', socket)).toBe('10.0.0.5');
    expect(forwardedClient('203.0.113.7, 1.2.3.999', '2001:db8::7')).toBe('2001:db8::7');
  });

  it('every spelling behind the proxy spends the plain address budget', () => {
    for (const form of ['203.0.113.7:5555', '203.000.113.007', '::ffff:203.0.113.7', '::ffff:cb00:7107']) {
      expect(clientKey(forwardedClient(`198.51.100.1, ${form}`, socket))).toBe('203.0.113.7');
    }
    expect(clientKey(forwardedClient('[2001:db8::1]:5555', socket))).toBe(clientKey('2001:db8::1'));
  });
});

describe('parseAddress at its edges', () => {
  it('a value quoted on both sides is unquoted and trimmed; a quote on one side is no address', () => {
    expect(parseAddress('" 1.2.3.4 "')).toBe('1.2.3.4');
    expect(parseAddress('"1.2.3.44')).toBeUndefined();
    expect(parseAddress('x1.2.3.4"')).toBeUndefined();
  });

  it('a port is dropped up to 65535; past it there is no address', () => {
    expect(parseAddress('1.2.3.4:65535')).toBe('1.2.3.4');
    expect(parseAddress('1.2.3.4:65536')).toBeUndefined();
    expect(parseAddress('[::1]:65535')).toBe('::1');
  });

  it('brackets are dropped only as a pair', () => {
    expect(parseAddress('[::1]')).toBe('::1');
    expect(parseAddress('[::1')).toBeUndefined();
    expect(parseAddress('x::1]')).toBeUndefined();
  });

  it('an IPv4 address is read out of the translated and NAT64 prefixes only when every group says so', () => {
    // ::ffff:0:0/96 (translated) needs a zero sixth group; 64:ff9b::/96 (NAT64) needs 64 first.
    expect(parseAddress('::ffff:0:102:304')).toBe('1.2.3.4');
    expect(parseAddress('::1:0:102:304')).toBe('::1:0:102:304');
    expect(parseAddress('::ffff:1:102:304')).toBe('::ffff:1:102:304');
    expect(parseAddress('64:ff9b::102:304')).toBe('1.2.3.4');
    expect(parseAddress('64:1::102:304')).toBe('64:1::102:304');
    expect(parseAddress('65:ff9b::102:304')).toBe('65:ff9b::102:304');
  });

  it('reads 255 as an IPv4 part, 256 not', () => {
    expect(parseAddress('255.255.255.255')).toBe('255.255.255.255');
    expect(parseAddress('1.2.3.256')).toBeUndefined();
  });

  it('reads `::` for one zero group, and refuses it beside seven written groups', () => {
    expect(parseAddress('1:2:3:4:5:6::7')).toBe('1:2:3:4:5:6:0:7');
    expect(parseAddress('1:2:3:4:5:6:7::8')).toBeUndefined();
    expect(parseAddress('1::2:3:4:5:6:7:8')).toBeUndefined();
  });

  it('reads a value of 100 characters, refuses one of 101', () => {
    const zoned = (length: number) => `fe80::1%${'z'.repeat(length - 'fe80::1%'.length)}`;
    expect(zoned(100)).toHaveLength(100);
    expect(parseAddress(zoned(100))).toBe('fe80::1');
    expect(parseAddress(zoned(101))).toBeUndefined();
  });
});
