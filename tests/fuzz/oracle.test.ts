/**
 * The fuzz oracle can fail: `checkAnswer`, `checkRawAnswer` and `expectErrorBody` (support.ts) reject
 * wrong answers of every kind the contract rules out, and accept right ones. No server: synthetic answers.
 */
import { describe, expect, it } from 'vitest';
import type { RawAnswer } from '../helpers/raw-http.ts';
import { parseResponse } from '../helpers/raw-http.ts';
import {
  checkAnswer,
  checkRawAnswer,
  expectErrorBody,
  expectVaryOn,
  markdownNotWanted,
  namedQuality,
  routedPath,
  type Sent,
} from './support.ts';

const ID = '3f41ea7d-5454-4423-b660-3a1b2c3d4e5f';
const answer = (status: number, headers: Record<string, string>, text = ''): RawAnswer => {
  const body = Buffer.from(text);
  return { status, headers: { 'x-request-id': ID, ...headers }, body, text, json: () => JSON.parse(text), ms: 1 };
};
const JSON_CT = { 'content-type': 'application/json; charset=utf-8' };
const err = (status: number, extra: Record<string, string> = {}) =>
  answer(status, { ...JSON_CT, ...extra }, JSON.stringify({ error: 'why', status }));
const get = (target: string, headers: Record<string, string> = {}): Sent => ({ method: 'GET', target, headers });

describe('checkAnswer accepts what the contract allows', () => {
  const good: [string, Sent, RawAnswer][] = [
    ['a 200 JSON read', get('/api/v1/pages'), answer(200, JSON_CT, '{"count":0,"pages":[]}')],
    ['a 400 Error', get('/api/v1/search'), err(400)],
    ['a 404 Error under /api/', get('/api/nope'), err(404)],
    [
      'a markdown 404 when markdown was asked for',
      get('/api/nope', { Accept: 'text/markdown' }),
      answer(404, { 'content-type': 'text/markdown; charset=utf-8' }, '# Not found\n'),
    ],
    [
      'a markdown 404 when markdown ranks above JSON',
      get('/api/nope', { Accept: 'application/json;q=0.5, text/markdown' }),
      answer(404, { 'content-type': 'text/markdown; charset=utf-8' }, '# Not found\n'),
    ],
    [
      'the HTML 404 page outside /api/',
      get('/nope'),
      answer(404, { 'content-type': 'text/html; charset=utf-8' }, '<!DOCTYPE html><html lang="en-AU"></html>'),
    ],
    ['a 405 with Allow', { method: 'PUT', target: '/api/v1/pages' }, err(405, { allow: 'GET, OPTIONS' })],
    ['a 429 with Retry-After', get('/api/v1/pages'), err(429, { 'retry-after': '30' })],
    ['a 204 preflight', { method: 'OPTIONS', target: '/api/v1/pages' }, answer(204, {})],
    ['a 308 to the clean URL', get('/pricing.html'), answer(308, { location: '/pricing' })],
    [
      'the SDK 406 on /mcp',
      { method: 'POST', target: '/mcp' },
      answer(406, JSON_CT, '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Not Acceptable"},"id":null}'),
    ],
    [
      'the sandbox 422',
      { method: 'POST', target: '/api/v1/lead/validate' },
      answer(422, JSON_CT, '{"sandbox":true,"wouldSubmit":true,"problems":[{"field":"x","error":"y"}]}'),
    ],
    [
      'a form post 400 page',
      { method: 'POST', target: '/api/lead', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
      answer(400, { 'content-type': 'text/html; charset=utf-8' }, '<!doctype html><html></html>'),
    ],
  ];
  for (const [name, sent, ans] of good) it(name, () => checkAnswer(sent, ans));
});

describe('checkAnswer rejects what the contract rules out', () => {
  const bad: [string, Sent, RawAnswer][] = [
    ['a 500', get('/api/v1/pages'), err(500)],
    ['a 502', { method: 'POST', target: '/api/lead' }, err(502)],
    ['a 503 from anywhere', get('/pricing'), answer(503, { 'content-type': 'text/html' }, '<html>')],
    ['a 401 (no authentication exists)', get('/api/v1/pages'), err(401)],
    ['a 403', get('/api/v1/pages'), err(403)],
    ['an answer without X-Request-Id', get('/api/v1/pages'), { ...err(400), headers: JSON_CT }],
    ['a 429 without Retry-After', get('/api/v1/pages'), err(429)],
    ['a 429 with Retry-After 0', get('/api/v1/pages'), err(429, { 'retry-after': '0' })],
    ['a 405 without Allow', { method: 'PUT', target: '/api/v1/pages' }, err(405)],
    ['a 308 without Location', get('/pricing.html'), answer(308, {})],
    [
      'a HEAD answer with a body',
      { method: 'HEAD', target: '/pricing' },
      answer(200, { 'content-type': 'text/html' }, '<html>'),
    ],
    ['a 304 with a body', get('/pricing'), answer(304, {}, 'x')],
    [
      'an HTML 404 under /api/',
      get('/api/nope'),
      answer(404, { 'content-type': 'text/html' }, '<!DOCTYPE html><html>'),
    ],
    ['an HTML 400 under /api/', get('/api/v1/search'), answer(400, { 'content-type': 'text/html' }, '<html>')],
    ['a text/plain 400 under /api/', get('/api/v1/search'), answer(400, { 'content-type': 'text/plain' }, 'bad')],
    ['an Error body with another status', get('/api/v1/search'), answer(400, JSON_CT, '{"error":"why","status":404}')],
    ['an Error body without status', get('/api/v1/search'), answer(400, JSON_CT, '{"error":"why"}')],
    ['an Error body with an empty error', get('/api/v1/search'), answer(400, JSON_CT, '{"error":"","status":400}')],
    ['an Error body that is not JSON', get('/api/v1/search'), answer(400, JSON_CT, '{"error":')],
    ['an Error body that is an array', get('/api/v1/search'), answer(400, JSON_CT, '[]')],
    ['a 200 JSON that does not parse', get('/api/v1/pages'), answer(200, JSON_CT, '{"count":')],
    [
      'a markdown 404 nobody asked for',
      get('/api/nope'),
      answer(404, { 'content-type': 'text/markdown' }, '# Not found'),
    ],
    [
      'a markdown 404 when JSON is preferred',
      get('/api/nope', { Accept: 'application/json, text/markdown;q=0.5' }),
      answer(404, { 'content-type': 'text/markdown' }, '# Not found'),
    ],
    [
      'a markdown 404 when markdown is refused',
      get('/api/nope', { Accept: 'text/markdown;q=0, */*' }),
      answer(404, { 'content-type': 'text/markdown' }, '# Not found'),
    ],
    [
      'a markdown 400',
      get('/api/nope', { Accept: 'text/markdown' }),
      answer(400, { 'content-type': 'text/markdown' }, '# Not found'),
    ],
    [
      'a JSON-RPC error outside /mcp',
      get('/api/v1/search'),
      answer(400, JSON_CT, '{"jsonrpc":"2.0","error":{"code":-32700,"message":"x"},"id":null}'),
    ],
    [
      'a 422 LeadValidation outside the sandbox',
      { method: 'POST', target: '/api/lead' },
      answer(422, JSON_CT, '{"sandbox":true,"wouldSubmit":true,"problems":[]}'),
    ],
    [
      'a 422 sandbox body of the wrong shape',
      { method: 'POST', target: '/api/v1/lead/validate' },
      answer(422, JSON_CT, '{"sandbox":false}'),
    ],
    [
      'an HTML form answer to a JSON post',
      { method: 'POST', target: '/api/lead', headers: { 'Content-Type': 'application/json' } },
      answer(400, { 'content-type': 'text/html' }, '<html>'),
    ],
    ['an HTML 400 outside /api/', get('/pricing'), answer(400, { 'content-type': 'text/html' }, '<html>')],
    ['an error without a content type', get('/pricing'), answer(404, {}, 'gone')],
    [
      'a 200 status the contract does not list (201)',
      { method: 'POST', target: '/api/lead' },
      answer(201, JSON_CT, '{"ok":true}'),
    ],
  ];
  for (const [name, sent, ans] of bad) it(name, () => expect(() => checkAnswer(sent, ans)).toThrow());
});

describe('checkRawAnswer and expectErrorBody', () => {
  it("accepts Node's own bare refusals of malformed HTTP, and a closed connection for CONNECT only", () => {
    checkRawAnswer(get('/x'), { ...answer(400, {}), headers: { connection: 'close' } });
    checkRawAnswer(get('/x'), { ...answer(431, {}), headers: {} });
    checkRawAnswer({ method: 'CONNECT', target: 'x:1' }, { ...answer(0, {}), headers: {} });
    expect(() => checkRawAnswer(get('/x'), { ...answer(0, {}), headers: {} })).toThrow();
    expect(() => checkRawAnswer(get('/x'), { ...answer(500, {}), headers: {} })).toThrow();
    expect(() => checkRawAnswer(get('/x'), { ...answer(404, {}), headers: {} })).toThrow();
    expect(() => checkRawAnswer(get('/api/x'), answer(404, { 'content-type': 'text/html' }, '<html>'))).toThrow();
  });
  it('expectErrorBody wants the status repeated', () => {
    expectErrorBody(err(413), 413);
    expect(() => expectErrorBody(err(413), 400)).toThrow();
  });
  it('expectVaryOn matches a whole token of Vary, not a substring', () => {
    for (const vary of ['Accept', 'accept', 'Accept, User-Agent', 'Accept-Encoding,Accept', ' Origin , ACCEPT '])
      expectVaryOn(answer(200, { vary }), 'Accept');
    for (const vary of ['Accept-Encoding', 'Accept-Language, Origin', 'X-Accept', '*', 'Accept;q=1', ''])
      expect(() => expectVaryOn(answer(200, { vary }), 'Accept'), vary).toThrow();
    expect(() => expectVaryOn(answer(200, {}), 'Accept')).toThrow();
  });
  it('namedQuality reads a named range and its q as RFC 9110 writes it, nothing else', () => {
    expect(namedQuality('application/json', 'application/json')).toBe(1);
    expect(namedQuality('text/html, Application/JSON ; q=0.25', 'application/json')).toBe(0.25);
    expect(namedQuality('*/*, application/*', 'application/json')).toBeUndefined();
    expect(namedQuality('text/markdown;q=2', 'text/markdown')).toBeUndefined();
    expect(namedQuality('text/markdown;q=abc', 'text/markdown')).toBeUndefined();
    expect(namedQuality('text/markdown;q=0.5, text/markdown', 'text/markdown')).toBeUndefined();
  });
  it('markdownNotWanted: JSON ranked above markdown, or markdown refused; ties and odd headers settle nothing', () => {
    for (const a of [
      'application/json, text/markdown;q=0.5',
      'text/markdown;q=0.5, application/json',
      'application/json;q=0.9, text/markdown;q=0.8',
      'text/markdown;q=0',
      'text/markdown;q=0.0, */*',
    ])
      expect(markdownNotWanted(a), a).toBe(true);
    for (const a of [
      '',
      'text/markdown',
      'application/json, text/markdown',
      'text/markdown, application/json;q=0.5',
      'text/markdown;q=abc, application/json',
      'text/x-markdown, text/markdown;q=0.1, application/json;q=0.5',
      'application/json',
    ])
      expect(markdownNotWanted(a), a).toBe(false);
  });
  it('routedPath folds slashes, resolves dot segments and decodes', () => {
    expect(routedPath('//api//v1')).toBe('/api//v1');
    expect(routedPath('/api/v1/pages/%2e%2e/search?q=1')).toBe('/api/v1/search');
    expect(routedPath('/%61pi')).toBe('/api');
    expect(routedPath('/%zz')).toBe('/%zz');
    expect(routedPath('api/v1')).toBe('/api/v1');
  });
  it('parseResponse reads chunked bodies, skips 100 Continue and waits for what is missing', () => {
    const chunked = Buffer.from(
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=1\r\nde\r\n0\r\n\r\n',
    );
    const r = parseResponse(chunked, false, false);
    expect(r !== 'malformed' && r?.status).toBe(200);
    expect(r !== 'malformed' && r?.body.toString()).toBe('abcde');
    expect(parseResponse(chunked.subarray(0, chunked.length - 4), false, false)).toBeUndefined();
    expect(parseResponse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab'), false, false)).toBeUndefined();
    expect(parseResponse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab'), false, true)).toBe('malformed');
    expect(parseResponse(Buffer.from('garbage\r\n\r\n'), false, false)).toBe('malformed');
    const head = parseResponse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n'), true, false);
    expect(head !== 'malformed' && head?.body.length).toBe(0);
  });
});
