/**
 * The analytics module's rules that need no browser (src/components/track.ts): an event's properties are
 * tokens, numbers and flags only, so free text never leaves even when a caller passes it; result counts are
 * bucketed; Global Privacy Control and Do Not Track each decline. The page itself is tested in
 * tests/e2e/analytics.spec.ts.
 */
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
