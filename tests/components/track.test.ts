/**
 * The analytics module's rules that need no browser (src/components/track.ts): an event's properties are
 * tokens, numbers and flags only, so free text never leaves even when a caller passes it; result counts are
 * bucketed; Global Privacy Control and Do Not Track each decline; the privacy policy and the deploy
 * documentation say what is sent. The page itself is tested in tests/e2e/analytics.spec.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bucketOf, clean, declined } from '../../src/components/track.ts';
import { withoutQuery } from '../../src/components/vercel-insights.ts';

describe("an event's properties", () => {
  it('keeps tokens, numbers and flags', () => {
    expect(
      clean({ form: 'demo', field: 'dialcode', results: '4+', bucket: '1-3', status: 429, answered: false }),
    ).toEqual({ form: 'demo', field: 'dialcode', results: '4+', bucket: '1-3', status: 429, answered: false });
  });

  it('drops free text, addresses, numbers that are not finite, objects, and keys that are not tokens', () => {
    expect(
      clean({
        question: 'is there a free trial?',
        name: 'Priya Raman',
        email: 'priya@coastwide.example',
        phone: '+64 21 555 0142',
        query: 'Storage',
        long: 'a'.repeat(33),
        url: '/search?q=pets',
        nan: Number.NaN,
        nested: { form: 'demo' },
        list: ['demo'],
        'Free text': 'demo',
        nothing: null,
      }),
    ).toEqual({});
  });
});

describe('bucketOf', () => {
  it('buckets a result count as 0, 1-3 or 4+', () => {
    expect([0, 1, 3, 4, 10].map(bucketOf)).toEqual(['0', '1-3', '1-3', '4+', '4+']);
  });
});

describe('declined', () => {
  const nav = (extra: object) => ({ ...extra }) as Navigator;
  const win = (extra: object) => ({ ...extra }) as Window;

  it('is true under Global Privacy Control or Do Not Track (navigator or window), false otherwise', () => {
    expect(declined(nav({ globalPrivacyControl: true }), win({}))).toBe(true);
    expect(declined(nav({ doNotTrack: '1' }), win({}))).toBe(true);
    expect(declined(nav({}), win({ doNotTrack: '1' }))).toBe(true);
    expect(declined(nav({ globalPrivacyControl: false, doNotTrack: '0' }), win({}))).toBe(false);
    expect(declined(nav({ doNotTrack: null }), win({}))).toBe(false);
  });
});

describe('withoutQuery', () => {
  it('sends a page address without its query and fragment', () => {
    expect(withoutQuery('https://kartage.example/search?q=storage%20billing#results')).toBe(
      'https://kartage.example/search',
    );
    expect(withoutQuery('https://kartage.example/pricing#plans')).toBe('https://kartage.example/pricing');
    expect(withoutQuery('https://kartage.example/pricing')).toBe('https://kartage.example/pricing');
  });
});

describe('what the privacy policy and the deploy documentation say', () => {
  const root = join(import.meta.dirname, '../..');
  const policy = readFileSync(join(root, 'content/pages/privacy.md'), 'utf8');
  const section = policy.split('## Cookies and analytics')[1]!.split('\n## ')[0]!;
  const deploy = readFileSync(join(root, 'docs/deploy.md'), 'utf8');

  it("the policy names both providers, each kind of event, the privacy signals and Vercel's 24 hours", () => {
    for (const said of [
      'Vercel Web Analytics',
      'Vercel Speed Insights',
      'Global Privacy Control',
      'Do Not Track',
      'discards after 24 hours',
      'the demo or contact form was shown',
      'The chat was opened',
      'A site search found no results, 1 to 3, or 4 or more',
      'We never send what you type',
    ])
      expect(section, said).toContain(said);
  });

  it('the deploy documentation lists every event the pages send', () => {
    const events = [...deploy.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(events).toEqual([
      'form_viewed',
      'form_refused',
      'form_submitted',
      'form_failed',
      'chat_opened',
      'chat_answered',
      'chat_unanswered',
      'chat_handed_off',
      'handoff_submitted',
      'search_run',
    ]);
  });
});
