// askSite end to end on a small site: answers quoted and linked, no answer said plainly, requests for a person
// handed over, a part the site does not answer named, pricing worked out; never an invented sentence.
import { describe, expect, it } from 'vitest';
import { AskResponseSchema } from '../../../src/contract/ask.ts';
import { askSite, NO_ANSWER } from '../../../src/core/ask/answer.ts';
import { inventedSentences } from '../../../eval/ask/metrics.ts';
import { NOON, ORIGIN, pricing, siteIndex } from './site.ts';

const index = await siteIndex();
const ask = (
  question: string,
  conversation?: { question: string; sources?: { slug: string; heading: string | null }[] }[],
) => {
  const r = askSite({ index, pricing, origin: ORIGIN, now: NOON }, { question, conversation });
  AskResponseSchema.parse(r);
  expect(inventedSentences(r, pricing)).toEqual([]);
  return r;
};

describe('askSite', () => {
  it('answers from the section that holds the question, quoted and linked to it', () => {
    const r = ask('Does the crew app work offline?');
    expect(r).toMatchObject({ answered: true, reason: 'answered', handoff: null });
    expect(r.sources[0]).toMatchObject({ slug: 'faq', heading: 'Does the crew app work offline?', role: 'answer' });
    expect(r.answer).toContain('keeps working without reception');
    expect(r.sources[0]!.url).toMatch(/^https:\/\/kartage\.test\/faq#:~:text=/);
  });

  it('says plainly when no page names what is asked, and offers a person', () => {
    const r = ask('do you integrate with hubspot and salesforce?');
    expect(r).toMatchObject({ answered: false, reason: 'no-match' });
    expect(r.answer.startsWith(NO_ANSWER)).toBe(true);
    expect(r.handoff).toMatchObject({ intent: 'contact', url: `${ORIGIN}/contact` });
  });

  it('hands a request for a person over with the label of the hour, quoting nothing', () => {
    const r = ask('can someone please ring me back tomorrow');
    expect(r).toMatchObject({ answered: false, reason: 'handoff', sources: [] });
    expect(r.handoff?.intent).toBe('callback');
    expect(r.answer).toBe(r.handoff?.label);
  });

  it('sends an existing customer with a problem to support', () => {
    const r = ask('the crew app keeps crashing on every phone since the update, we need support');
    expect(r.reason).toBe('handoff');
    expect(r.handoff).toMatchObject({ intent: 'contact', url: `${ORIGIN}/contact#who-to-contact` });
  });

  it('answers each part of a two-part question, and names a part the site does not answer', () => {
    const r = ask('is there a free trial? and does it integrate with hubspot crm?');
    expect(r.answered).toBe(true);
    expect(r.sources[0]).toMatchObject({ heading: 'Is there a free trial?', role: 'answer' });
    expect(r.answer).toContain('“does it integrate with hubspot crm?”');
  });

  it('works out a price from the price list, each price cited', () => {
    const r = ask('How much is Starter plus 2 extra office users?');
    expect(r.working).toMatchObject({ plan: 'Starter', monthly: 390 + 2 * 45 });
    expect(r.sources.some((s) => s.slug === 'pricing')).toBe(true);
  });

  it('reads a follow-up with the earlier turn', () => {
    const r = ask('and is it free?', [
      { question: 'does storage have lot tracking?', sources: [{ slug: 'product/storage', heading: 'Lot tracking' }] },
    ]);
    expect(r.sources.length).toBeGreaterThan(0);
  });
});
