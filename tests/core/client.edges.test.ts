/**
 * Client addresses at their edges (src/core/client.ts; tests/core/client.test.ts holds the main forms): a
 * quoted value only when quoted on both sides, a port up to 65535, brackets only as a pair, and the IPv6
 * prefixes that carry an IPv4 address exactly (one group off is plain IPv6). Written against the mutants
 * `npm run mutate` left (bench/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/core/client.ts';

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
    expect(parseAddress('::ffff:0:102:304')).toBe('1.2.3.4');
    expect(parseAddress('::1:0:102:304')).toBe('::1:0:102:304');
    expect(parseAddress('64:ff9b::102:304')).toBe('1.2.3.4');
    expect(parseAddress('64:1::102:304')).toBe('64:1::102:304');
  });
});
