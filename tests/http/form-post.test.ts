/**
 * The lead form without JavaScript, module by module with plain `Request`s (tests/server/leads.test.ts
 * posts it over a socket): which posts are forms, how a form body becomes a lead, who gets an HTML page,
 * which cross-site posts are refused, and what each answer page says, with what status and headers.
 * Written with the mutants `npm run mutate` found surviving (bench/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import {
  crossSiteRefusal,
  escapeHtml,
  formToLead,
  isFormPost,
  leadAnswerPage,
  readForm,
  wantsHtml,
} from '../../src/http/form-post.ts';

const SITE = 'https://kartage.com.au';
const post = (headers: Record<string, string>, body?: BodyInit) =>
  new Request(`${SITE}/api/lead`, { method: 'POST', headers, body });
const FORM = 'application/x-www-form-urlencoded';

describe('which posts are forms, and what a form body becomes', () => {
  it('a form Content-Type is recognised in any case and with parameters; JSON and none are not forms', () => {
    expect(isFormPost(post({ 'content-type': 'Application/X-WWW-Form-Urlencoded ; charset=UTF-8' }))).toBe(true);
    expect(isFormPost(post({ 'content-type': 'application/json' }))).toBe(false);
    expect(isFormPost(post({}))).toBe(false);
  });

  it('each field keeps its first non-empty value, empty fields are left out, CRLF becomes LF', () => {
    const lead = formToLead(
      new URLSearchParams('name=&name=Sam&name=Other&email=s%40h.au&company=&message=a%0D%0Ab%0Dc'),
    );
    expect(lead).toEqual({ name: 'Sam', email: 's@h.au', message: 'a\nb\nc' });
  });

  it('a form body is read into the lead; a JSON body under a form type is handed back as JSON', async () => {
    expect(await readForm(post({ 'content-type': FORM }, 'name=Sam+Lee&intent=demo'), 1024)).toEqual({
      kind: 'form',
      lead: { name: 'Sam Lee', intent: 'demo' },
    });
    const json = await readForm(post({ 'content-type': FORM }, '  {"name":"Sam"}'), 1024);
    expect(json.kind).toBe('json');
    if (json.kind === 'json') expect(await json.request.json()).toEqual({ name: 'Sam' });
  });

  it('a form body over the limit is a failure, not a lead', async () => {
    expect(await readForm(post({ 'content-type': FORM }, `message=${'x'.repeat(100)}`), 50)).toEqual({
      kind: 'failed',
      failure: 'too-large',
    });
  });
});

describe('who gets an HTML page', () => {
  const accept = (value: string) => wantsHtml(post({ accept: value }));
  it("a browser's Accept gets HTML; curl's */*, JSON clients and none get JSON", () => {
    expect(accept('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(accept('text/*')).toBe(true);
    expect(accept('*/*')).toBe(false);
    expect(accept('application/json')).toBe(false);
    expect(wantsHtml(post({}))).toBe(false);
  });

  it('HTML refused (q=0) or ranked under JSON gets JSON; HTML ranked equal to JSON gets HTML', () => {
    expect(accept('text/html;q=0, application/json')).toBe(false);
    expect(accept('text/html;q=0.5, application/json')).toBe(false);
    expect(accept('text/html, application/json')).toBe(true);
  });
});

describe('cross-site posts', () => {
  const refusal = (headers: Record<string, string>, anyType = false) => crossSiteRefusal(post(headers), SITE, anyType);

  it('posts from the site itself, from this host, or without an Origin go through', () => {
    expect(refusal({ 'content-type': FORM, origin: SITE })).toBeUndefined();
    expect(refusal({ 'content-type': FORM, origin: new URL(post({}).url).origin })).toBeUndefined();
    expect(refusal({ 'content-type': FORM })).toBeUndefined();
  });

  it('a form from another origin, or marked cross-site, is refused with the type named', () => {
    expect(refusal({ 'content-type': FORM, origin: 'https://evil.example' })).toBe(
      `Cross-site ${FORM} posts are not accepted: send the lead as application/json, or use the form at ${SITE}/contact`,
    );
    expect(refusal({ 'content-type': 'text/plain', 'sec-fetch-site': 'Cross-Site' })).toMatch(
      /^Cross-site text\/plain posts/,
    );
    expect(refusal({ origin: 'null' })).toMatch(/^Cross-site untyped posts/);
  });

  it('JSON from another origin passes where any origin may send JSON, and is refused on the lead endpoint', () => {
    const headers = { 'content-type': 'application/problem+json', origin: 'https://evil.example' };
    expect(refusal(headers)).toBeUndefined();
    expect(refusal(headers, true)).toBe(
      "Cross-site posts are not accepted: another website cannot send leads from its visitors' browsers. " +
        `Use the form at ${SITE}/contact, or send the lead from a server or an agent (no Origin header)`,
    );
    expect(refusal({ 'content-type': 'application/json', origin: SITE }, true)).toBeUndefined();
  });
});

describe('the answer pages', () => {
  const html = async (r: Response) => r.text();

  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;',
    );
  });

  it('accepted: 200, thanks by first name (escaped), the demo or enquiry promise, no-store HTML', async () => {
    const r = leadAnswerPage({ kind: 'accepted' }, { name: '  <Sam> Lee', intent: ' demo ' }, { 'X-Extra': '1' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('x-extra')).toBe('1');
    const body = await html(r);
    expect(body).toContain('<title>Thank you: your demo request is in | Kartage</title>');
    expect(body).toContain('Thanks, &lt;Sam&gt;. We will email you within one business day');
    expect(body).toContain('#15703d');

    const enquiry = await html(leadAnswerPage({ kind: 'accepted' }, { name: '' }));
    expect(enquiry).toContain('<h1>Thank you: we have your enquiry</h1>');
    expect(enquiry).toContain('<p>A real person in our Melbourne or Brisbane office');
  });

  it('rejected: 400, each refused field by its form label, one or several problems, back to its form', async () => {
    const one = leadAnswerPage(
      {
        kind: 'rejected',
        message: 'm',
        problems: [
          { field: 'email', outcome: 'reject', error: 'email <is> blank' },
          { field: 'phone', outcome: 'drop', error: 'dropped, not shown' },
        ],
      },
      { intent: 'enquiry' },
    );
    expect(one.status).toBe(400);
    const body = await html(one);
    expect(body).toContain('Please fix this problem and send it again');
    expect(body).toContain('<li><strong>Work email:</strong> email &lt;is&gt; blank</li>');
    expect(body).not.toContain('dropped, not shown');
    expect(body).toContain('<a href="/contact">Go back to the form</a>');
    expect(body).toContain('#b42318');

    const two = await html(
      leadAnswerPage(
        {
          kind: 'rejected',
          message: 'm',
          problems: [
            { field: 'name', outcome: 'reject', error: 'a' },
            { field: 'x-other', outcome: 'reject', error: 'b' },
          ],
        },
        { intent: 'demo' },
      ),
    );
    expect(two).toContain('Please fix these problems');
    expect(two).toContain('<strong>Name:</strong>');
    expect(two).toContain('<strong>x-other:</strong>');
    expect(two).toContain('<a href="/demo">');

    const none = await html(
      leadAnswerPage({ kind: 'rejected', message: 'Body <must> be an object', problems: [] }, undefined),
    );
    expect(none).toContain('<li>Body &lt;must&gt; be an object</li>');
  });

  it('too large: 413 with the limit in KB; unreadable: 400 asking to send again', async () => {
    const big = leadAnswerPage({ kind: 'too-large', maxBytes: 65536 }, undefined);
    expect(big.status).toBe(413);
    expect(await html(big)).toContain('The form was larger than 64 KB');
    const broken = leadAnswerPage({ kind: 'unreadable' }, undefined);
    expect(broken.status).toBe(400);
    expect(await html(broken)).toContain('<h1>We could not read the form</h1>');
  });

  it('limited: 429 with the wait in minutes (one minute, several, or later) and the other ways to reach sales', async () => {
    const one = leadAnswerPage({ kind: 'limited', retryAfter: 30 }, undefined, { 'Retry-After': '30' });
    expect(one.status).toBe(429);
    expect(one.headers.get('retry-after')).toBe('30');
    const body = await html(one);
    expect(body).toContain('Please try again in 1 minute.');
    expect(body).toContain('<a href="mailto:sales@kartage.com.au">sales@kartage.com.au</a>');
    expect(body).toContain('<a href="tel:1300527824">1300 527 824</a>');
    expect(await html(leadAnswerPage({ kind: 'limited', retryAfter: 600 }, undefined))).toContain(
      'Please try again in 10 minutes.',
    );
    expect(await html(leadAnswerPage({ kind: 'limited', retryAfter: Number.NaN }, undefined))).toContain(
      'Please try again later.',
    );
  });

  it('unrecorded: 502 saying nothing was saved; any other answer: its status and escaped message', async () => {
    const lost = leadAnswerPage({ kind: 'unrecorded' }, undefined);
    expect(lost.status).toBe(502);
    expect(await html(lost)).toContain('nothing was saved');
    const other = leadAnswerPage({ kind: 'other', status: 409, message: 'Key <busy>' }, undefined);
    expect(other.status).toBe(409);
    const body = await html(other);
    expect(body).toContain('<h1>Something went wrong</h1>');
    expect(body).toContain('<p>Key &lt;busy&gt;</p>');
  });
});

describe('the edges of forms, Accept and origins', () => {
  it('bytes that are not UTF-8 in a form become U+FFFD, not a thrown error', async () => {
    const body = Buffer.concat([Buffer.from('name=Sam'), Buffer.from([0xff])]);
    expect(await readForm(post({ 'content-type': FORM }, body), 1024)).toEqual({
      kind: 'form',
      lead: { name: 'Sam\uFFFD' },
    });
  });

  it('HTML named only to be refused (q=0) gets JSON, even with JSON not named', () => {
    expect(wantsHtml(post({ accept: 'text/html;q=0' }))).toBe(false);
  });

  it('JSON from another origin passes by default; a type is JSON only whole, in any case and with parameters', () => {
    const evil = { origin: 'https://evil.example' };
    expect(crossSiteRefusal(post({ 'content-type': 'application/json', ...evil }), SITE)).toBeUndefined();
    expect(
      crossSiteRefusal(post({ 'content-type': ' Application/JSON ; charset=utf-8', ...evil }), SITE),
    ).toBeUndefined();
    expect(crossSiteRefusal(post({ 'content-type': 'x-application/json', ...evil }), SITE)).toMatch(
      /^Cross-site x-application\/json posts/,
    );
    expect(crossSiteRefusal(post({ 'content-type': 'application/jsonp', ...evil }), SITE)).toMatch(
      /^Cross-site application\/jsonp posts/,
    );
  });

  it("a form from the site's origin to another host of it (a preview deployment), or from that host, goes through", () => {
    const preview = (origin: string) =>
      new Request('https://kartage-preview.vercel.app/api/lead', {
        method: 'POST',
        headers: { 'content-type': FORM, origin },
      });
    expect(crossSiteRefusal(preview(SITE), SITE)).toBeUndefined();
    expect(crossSiteRefusal(preview('https://kartage-preview.vercel.app'), SITE)).toBeUndefined();
    expect(crossSiteRefusal(preview('https://evil.example'), SITE)).toMatch(/^Cross-site /);
  });
});

describe('each answer page, whole', () => {
  const main = async (r: Response) => {
    const text = await r.text();
    return text.slice(text.indexOf('<main>\n') + 7, text.indexOf('\n</main>'));
  };
  const back = (path: string) =>
    `<p><a href="${path}">Go back to the form</a> (your browser's Back button keeps what you typed).</p>`;
  const elsewhere =
    '<p>You can also email <a href="mailto:sales@kartage.com.au">sales@kartage.com.au</a> or call ' +
    '<a href="tel:1300527824">1300 527 824</a> (';

  it('accepted: the thanks and the links back to the site, one block a line', async () => {
    expect(await main(leadAnswerPage({ kind: 'accepted' }, { name: 'Sam' }))).toBe(
      '<h1>Thank you: we have your enquiry</h1>\n' +
        '<p>Thanks, Sam. A real person in our Melbourne or Brisbane office will reply within one business day.</p>\n' +
        '<p><a href="/">Back to the Kartage website</a> · <a href="/pricing">See pricing</a> · ' +
        '<a href="/blog">Read the blog</a></p>',
    );
  });

  it('rejected: its title, every refused field in one list, back to the form of the intent (trimmed)', async () => {
    const r = leadAnswerPage(
      {
        kind: 'rejected',
        message: 'm',
        problems: [
          { field: 'name', outcome: 'reject', error: 'a' },
          { field: 'email', outcome: 'reject', error: 'b' },
        ],
      },
      { intent: ' demo ' },
    );
    expect(await main(r)).toBe(
      '<h1>Please check your details</h1>\n' +
        '<p>We could not send the form. Please fix these problems and send it again:</p>\n' +
        '<ul><li><strong>Name:</strong> a</li><li><strong>Work email:</strong> b</li></ul>\n' +
        back('/demo'),
    );
    const noIntent = leadAnswerPage({ kind: 'rejected', message: 'm', problems: [] }, { name: 'Sam' });
    expect(await main(noIntent)).toContain(back('/contact'));
  });

  it('too large and unreadable: their titles and the whole text', async () => {
    expect(await main(leadAnswerPage({ kind: 'too-large', maxBytes: 2048 }, undefined))).toBe(
      '<h1>Your message is too long</h1>\n' +
        '<p>The form was larger than 2 KB, so we could not read it. Please shorten your message and send it again.</p>\n' +
        back('/contact'),
    );
    expect(await main(leadAnswerPage({ kind: 'unreadable' }, undefined))).toBe(
      '<h1>We could not read the form</h1>\n<p>The form did not arrive whole. Please send it again.</p>\n' +
        back('/contact'),
    );
  });

  it('limited and unrecorded: their titles, the other ways to reach sales, the way back', async () => {
    const limited = await main(leadAnswerPage({ kind: 'limited', retryAfter: 120 }, undefined));
    expect(limited).toMatch(/^<h1>Please try again later<\/h1>\n<p>Too many enquiries/);
    expect(limited).toContain(`</p>\n${elsewhere}`);
    expect(limited.endsWith('</p>\n<p><a href="/">Back to the Kartage website</a></p>')).toBe(true);
    const lost = await main(leadAnswerPage({ kind: 'unrecorded' }, { intent: 'demo' }));
    expect(
      lost.startsWith(
        '<h1>We could not record your details</h1>\n' +
          '<p>Sorry: your details could not be recorded just now, and nothing was saved. ' +
          `Please use the chat on our website, or contact our sales team directly:</p>\n${elsewhere}`,
      ),
    ).toBe(true);
    expect(lost.endsWith(`).</p>\n${back('/demo')}`)).toBe(true);
  });
});
