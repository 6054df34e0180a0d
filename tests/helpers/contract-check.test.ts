/** The contract checker itself: it must flag each kind of break, or the HTTP tests prove nothing. */
import { describe, expect, it } from 'vitest';
import { createContractChecker } from './contract-check.ts';

const origin = 'https://kartage.com.au';
const rate = {
  'RateLimit-Limit': '120',
  'RateLimit-Remaining': '1',
  'RateLimit-Reset': '5',
  'RateLimit-Policy': '120;w=60',
  Vary: 'Accept',
  'Cache-Control': 'private',
};
const jsonAnswer = (body: unknown, status = 200, headers: Record<string, string> = rate) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });

async function run(request: Request, response: Response) {
  const c = createContractChecker(origin);
  c.inspect(request, response);
  return c.violations();
}

describe('contract checker', () => {
  const list = new Request(`${origin}/api/v1/pages?limit=1`);
  const page = { slug: 'pricing', title: 'Pricing', url: `${origin}/pricing` };

  it('passes a correct answer', async () => {
    expect(await run(list, jsonAnswer({ count: 1, pages: [page] }))).toEqual([]);
  });
  it('flags a body that does not match the schema', async () => {
    expect((await run(list, jsonAnswer({ count: '1', pages: [page] })))[0]).toMatch(/body does not match/);
    expect((await run(list, jsonAnswer({ pages: [page] })))[0]).toMatch(/count/);
  });
  it('flags an undocumented status, a missing required header and a wrong content type', async () => {
    expect((await run(list, jsonAnswer({ error: 'x', status: 418 }, 418)))[0]).toMatch(/status not documented/);
    const { 'RateLimit-Remaining': _r, ...partial } = rate;
    expect((await run(list, jsonAnswer({ count: 1, pages: [page] }, 200, partial)))[0]).toMatch(
      /missing header RateLimit-Remaining/,
    );
    expect(
      (await run(list, new Response('hi', { status: 200, headers: { 'Content-Type': 'text/plain', ...rate } })))[0],
    ).toMatch(/content type/);
  });
  it('flags any 5xx, except the documented 502 of lead submission', async () => {
    expect((await run(new Request(`${origin}/pricing`), new Response('boom', { status: 500 })))[0]).toMatch(/a 5xx/);
    expect(
      await run(
        new Request(`${origin}/api/lead`, { method: 'POST' }),
        jsonAnswer({ error: 'use the chat', status: 502 }, 502, {}),
      ),
    ).toEqual([]);
  });
  it('checks the Error body of a 4xx', async () => {
    expect(
      await run(new Request(`${origin}/api/v1/search?q=a`), jsonAnswer({ error: 'q too short', status: 400 }, 400)),
    ).toEqual([]);
    expect(
      (await run(new Request(`${origin}/api/v1/search?q=a`), jsonAnswer({ message: 'q too short' }, 400)))[0],
    ).toMatch(/body does not match/);
    // The search 400 is metered, so its RateLimit headers are documented as required.
    expect(
      (
        await run(
          new Request(`${origin}/api/v1/search?q=a`),
          jsonAnswer({ error: 'q too short', status: 400 }, 400, {}),
        )
      )[0],
    ).toMatch(/missing header RateLimit-Limit/);
  });
});
