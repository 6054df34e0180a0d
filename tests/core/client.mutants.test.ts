/**
 * Client addresses (src/core/client.ts) at the edges the other client tests leave open: an IPv4 part of
 * exactly 255, `::` standing for a single zero group (and refused when eight groups are already written),
 * prefixes that only look like an IPv4-carrying one, and the 100-character limit on the value.
 */
import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/core/client.ts';

describe('parseAddress', () => {
  it('reads 255 as an IPv4 part, 256 not', () => {
    expect(parseAddress('255.255.255.255')).toBe('255.255.255.255');
    expect(parseAddress('1.2.3.256')).toBeUndefined();
  });

  it('reads `::` for one zero group, and refuses it beside seven written groups', () => {
    expect(parseAddress('1:2:3:4:5:6::7')).toBe('1:2:3:4:5:6:0:7');
    expect(parseAddress('1:2:3:4:5:6:7::8')).toBeUndefined();
    expect(parseAddress('1::2:3:4:5:6:7:8')).toBeUndefined();
  });

  it('keeps an IPv6 address whose prefix is near, but not, an IPv4-carrying one', () => {
    // ::ffff:0:0/96 (translated) needs a zero sixth group; 64:ff9b::/96 (NAT64) needs 64 first.
    expect(parseAddress('::ffff:1:102:304')).toBe('::ffff:1:102:304');
    expect(parseAddress('::ffff:0:102:304')).toBe('1.2.3.4');
    expect(parseAddress('65:ff9b::102:304')).toBe('65:ff9b::102:304');
    expect(parseAddress('64:ff9b::102:304')).toBe('1.2.3.4');
  });

  it('reads a value of 100 characters, refuses one of 101', () => {
    const zoned = (length: number) => `fe80::1%${'z'.repeat(length - 'fe80::1%'.length)}`;
    expect(zoned(100)).toHaveLength(100);
    expect(parseAddress(zoned(100))).toBe('fe80::1');
    expect(parseAddress(zoned(101))).toBeUndefined();
  });
});
