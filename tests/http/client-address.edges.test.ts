/**
 * Client addresses at their edges (src/http/client-address.ts; tests/http/client-address.test.ts holds the
 * main forms): a quoted value only when quoted on both sides, a port up to 65535, brackets only as a pair, an
 * IPv4 part of exactly 255, `::` for a single zero group, the IPv6 prefixes that carry an IPv4 address
 * exactly (one group off is plain IPv6), and the 100-character limit on the value.
 */
import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/http/client-address.ts';

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
