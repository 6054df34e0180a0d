/**
 * The bounded body reader (src/http/request-body.ts) with plain `Request`s: a body within its limit, one over
 * it (declared or streamed), one that breaks off, and what `readJson` answers to each.
 */
import { describe, expect, it } from 'vitest';
import { readBytes, readJson } from '../../src/http/request-body.ts';

const SITE = 'https://kartage.com.au';
const URL_ = `${SITE}/api/lead`;
const post = (headers: Record<string, string>, body?: BodyInit) => new Request(URL_, { method: 'POST', headers, body });

describe('reading a body within a limit', () => {
  const streamed = (parts: string[], fail = false) =>
    new Request(`${SITE}/api/lead`, {
      method: 'POST',
      body: new ReadableStream<Uint8Array>({
        start(c) {
          for (const p of parts) c.enqueue(new TextEncoder().encode(p));
          if (fail) c.error(new Error('connection reset'));
          else c.close();
        },
      }),
      // @ts-expect-error Node's fetch needs duplex for a streamed body
      duplex: 'half',
    });

  it('a body of exactly the limit is read whole; one byte more is too large', async () => {
    const exact = await readBytes(streamed(['12345', '67890']), 10);
    expect(exact.ok && Buffer.from(exact.bytes).toString()).toBe('1234567890');
    expect(await readBytes(streamed(['12345', '678901']), 10)).toEqual({ ok: false, failure: 'too-large' });
  });

  it('a declared length over the limit is refused before reading; a body that breaks off is unreadable', async () => {
    expect(await readBytes(post({ 'content-length': '11' }, '1'), 10)).toEqual({ ok: false, failure: 'too-large' });
    expect(await readBytes(streamed(['12'], true), 10)).toEqual({ ok: false, failure: 'unreadable' });
  });

  it('readJson names each failure with its status and text', async () => {
    expect(await readJson(post({}, '{"a":1}'), 100)).toEqual({ ok: true, value: { a: 1 } });
    expect(await readJson(post({}, '  '), 100)).toEqual({
      ok: false,
      failure: 'empty',
      status: 400,
      error: 'Request body is empty: send a JSON object',
    });
    expect(await readJson(post({}, '{a'), 100)).toEqual({
      ok: false,
      failure: 'not-json',
      status: 400,
      error: 'Request body is not valid JSON',
    });
    expect(await readJson(post({}, 'x'.repeat(101)), 100)).toEqual({
      ok: false,
      failure: 'too-large',
      status: 413,
      error: 'Request body is larger than 100 bytes',
    });
    expect(await readJson(streamed(['{'], true), 100)).toEqual({
      ok: false,
      failure: 'unreadable',
      status: 400,
      error: 'Request body could not be read to its end',
    });
  });
});

describe('the bounded body reader at its edges', () => {
  it('a declared length of exactly the limit is read', async () => {
    const r = await readBytes(
      new Request(URL_, { method: 'POST', headers: { 'content-length': '4' }, body: 'abcd' }),
      4,
    );
    expect(r.ok && r.bytes.toString()).toBe('abcd');
  });

  it('a request without a body reads as empty (not a failure)', async () => {
    const r = await readBytes(new Request(URL_, { method: 'GET' }), 4);
    expect(r.ok && r.bytes.length).toBe(0);
    expect(await readJson(new Request(URL_), 4)).toMatchObject({ ok: false, failure: 'empty', status: 400 });
  });

  it('bytes that are not UTF-8 become U+FFFD, not a thrown error', async () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]); // {"a":"<0xff>"}
    expect(await readJson(new Request(URL_, { method: 'POST', body: bytes }), 100)).toEqual({
      ok: true,
      value: { a: '\uFFFD' },
    });
  });
});
