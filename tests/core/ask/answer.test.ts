// askSite end to end on a small site: answers quoted and linked, no answer said plainly, requests for a person
// handed over, a part the site does not answer named, pricing worked out; never an invented sentence.
import { describe, expect, it } from 'vitest';
import { AskResponseSchema } from '../../../src/contract/ask.ts';
import { askSite, NO_ANSWER, NO_ANSWER_RELATED } from '../../../src/core/ask/answer.ts';
import { partUnanswered } from '../../../src/core/ask/compose.ts';
import { inventedSentences } from '../../../eval/ask/metrics.ts';
import { NOON, ORIGIN, PAGES, page, pricing, siteIndex, WRITTEN } from './site.ts';

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

  it('answers the parts of a priced question the price list does not price, and names those the site does not', () => {
    const working =
      'That comes to $480 a month excluding GST: $390 for Starter plan + 2 × $45 for extra office users (per month) = ' +
      '$480.\n\nAn extra office user is $45 per user per month.';
    const r = ask('How much is Starter plus 2 extra office users? and does the crew app work offline?');
    expect(r.working).toMatchObject({ plan: 'Starter', monthly: 390 + 2 * 45 });
    expect(r.answer).toBe(
      `${working}\n\nThe crew app keeps working without reception and syncs when the phone is back online.`,
    );
    expect(r.sources.map((s) => [s.heading, s.role])).toEqual([
      ['Compare plans', 'answer'],
      ['Add-ons', 'answer'],
      ['Does the crew app work offline?', 'answer'],
    ]);
    const unanswered = ask('How much is Starter plus 2 extra office users? and does it integrate with hubspot crm?');
    expect(unanswered.answer).toBe(`${working}\n\n${partUnanswered('does it integrate with hubspot crm?')}`);
    // A part answered from a section the price list's answer cites already: that section is listed once.
    const plans = ask('How much is Starter plus 2 extra office users? and which plans are there?');
    expect(plans.answer).toContain('| Growth | $890 a month |');
    expect(plans.sources.map((s) => s.heading)).toEqual(['Compare plans', 'Add-ons']);
    // The other parts' sections fit beside the price list's (at most five sources, each quote cited), or are left out.
    const full = ask(
      'Starter + 2 extra office users, billed annually inc GST? and does the crew app work offline? and where is our data?',
    );
    expect(full.working?.annual).toBe(4800);
    expect(full.answer).not.toContain('crew app');
    expect(full.sources.map((s) => s.heading)).toEqual(['Compare plans', 'Add-ons', 'Annual billing', null]);
    // One part, priced (a follow-up's price reads the earlier turn): the working alone, as before.
    expect(ask('How much is Starter plus 2 extra office users?').answer).toBe(working);
    const earlier = [{ question: 'how much is Starter?', sources: [{ slug: 'pricing', heading: 'Compare plans' }] }];
    expect(ask('and with 2 extra office users?', earlier).answer).toBe(working);
  });

  it('answers a part asking the price of the add-on the message prices with its row, not as a question of its own', () => {
    // "what do they cost each?" leans on the crew phones: not retrieved alone (the plans' prices would answer it).
    const r = ask('how do i add more crew phones and what do they cost each?');
    expect(r.answer).toContain('An extra crew device is $12 per device per month.');
    // The part "how do i add more crew phones" ranks the add-ons section first too: the price list quoted it already.
    expect(r.answer.split('An extra crew device').length).toBe(2);
    expect(r.sources.filter((s) => s.role === 'answer').map((s) => s.heading)).toEqual(['Add-ons']);
    // When the message prices a plan, such a part is asked on its own: the plan's price does not answer it.
    const starter = ask('How many crew phones come with Starter, and what do we pay for each one on top of that?');
    expect(starter.working?.plan).toBe('Starter');
    // The working's row, then a section for each part (this small site answers neither well: it has no devices page).
    expect(starter.sources.filter((s) => s.role === 'answer').length).toBe(3);
  });

  it('answers a priced question from the pages when the pricing page no longer says the price list', async () => {
    const unpriced = (p: (typeof PAGES)[number]) =>
      p.slug === 'pricing'
        ? { ...p, markdown: p.markdown.replace(/An extra .*month\./, 'Add-ons are billed monthly.') }
        : p;
    const stale = await siteIndex(WRITTEN, PAGES.map(unpriced));
    const r = askSite(
      { index: stale, pricing, origin: ORIGIN, now: NOON },
      { question: 'how much is an extra crew device?' },
    );
    expect(r.answer).toBe('Add-ons are billed monthly.');
    expect(r.sources.map((s) => [s.heading, s.role])).toEqual([['Add-ons', 'answer']]);
  });

  it('reads a follow-up with the earlier turn', () => {
    const r = ask('and is it free?', [
      { question: 'does storage have lot tracking?', sources: [{ slug: 'product/storage', heading: 'Lot tracking' }] },
    ]);
    expect(r.sources.length).toBeGreaterThan(0);
  });

  it('reads the question trimmed, with or without an earlier turn', () => {
    const r = ask('  Does the crew app work offline?  ', []);
    expect(r.question).toBe('Does the crew app work offline?');
    expect(r.answer).toBe('Yes. The crew app keeps working without reception and syncs when the phone is back online.');
  });

  // [message, the handoff's intent]: a request for a person is handed over, whatever topic it names, quoting nothing.
  const REQUESTS: [string, string][] = [
    ['call me back about storage billing runs', 'callback'],
    // A topic the site answers is not answered beside the request.
    ['please call me back about whether the crew app works offline', 'callback'],
    ['can i leave a message for the team about whether the crew app works offline', 'message'],
    ['can i leave a message for the team about storage billing', 'message'],
    ['the crew app keeps crashing when we do lot tracking, need support', 'contact'],
    ['i want to talk to sales', 'contact'],
    ['book a demo of lot tracking', 'demo'],
  ];
  it.each(REQUESTS)('hands "%s" over (%s)', (question, intent) => {
    const r = ask(question);
    expect(r).toMatchObject({ answered: false, reason: 'handoff', sources: [] });
    expect(r.handoff?.intent).toBe(intent);
    expect(r.answer).toBe(r.handoff?.label);
  });

  it('works out a price a customer asks for a change to their plan, which the classifier reads as support', () => {
    const r = ask('we are on growth, recordings help with disputes, so add 2 users. monthly cost?');
    expect(r).toMatchObject({ answered: true, reason: 'answered', handoff: null });
    expect(r.working?.monthly).toBe(890 + 2 * 45);
  });

  it('keeps a request for sales beside a plan chosen for figures, no price asked', () => {
    for (const question of [
      'put me onto sales, which plan for 1 warehouse?',
      'put me onto sales, which plan for 800 moves a year?',
    ]) {
      const r = ask(question);
      expect(r.handoff?.intent, question).toBe('contact');
      expect(r.working?.plan, question).toBe('Growth');
    }
  });

  it('works out a price asked of sales, offering sales beside it only when asked for beyond doubt', () => {
    const quote = ask('quote me starter with 2 extra office users, monthly');
    expect(quote).toMatchObject({ answered: true, reason: 'answered', handoff: null });
    expect(quote.working?.monthly).toBe(390 + 2 * 45);
    const sales = ask('i want to talk to sales about starter with 2 extra office users, how much?');
    expect(sales).toMatchObject({ answered: true, reason: 'answered', handoff: { intent: 'contact' } });
    expect(sales.working?.monthly).toBe(390 + 2 * 45);
  });

  it('answers each part from its own section, in order, and a section answering two parts once', () => {
    const r = ask('is there a free trial? where is our data stored? how are vaults billed?');
    expect(r.answer.split('\n\n')).toEqual([
      'Yes. Starter and Growth come with a 30-day trial. Professional and Enterprise start with a scoped proposal instead.',
      'All customer data is hosted in Sydney, Australia, with backups in Melbourne.',
      'Storage billing runs invoice every vault on the same day each month. Part months are charged pro rata.',
    ]);
    expect(r.sources.map((s) => [s.role, s.heading])).toEqual([
      ['answer', 'Is there a free trial?'],
      ['answer', 'Where is our data stored?'],
      ['answer', 'Billing runs'],
    ]);
    // Numbered, or one to a line, after a lead-in: the same answer, each part led as when asked alone.
    for (const listed of [
      'crew app questions: 1) is there a free trial 2) where is our data stored 3) how are vaults billed',
      'Is there a free trial.\nWhere is our data stored.\nHow are vaults billed?',
    ])
      expect(ask(listed).answer).toBe(r.answer);
    const twice = ask('is there a free trial? can we try it before we pay?');
    expect(twice.answer).toBe(r.answer.split('\n\n')[0]);
    expect(twice.sources.map((s) => s.heading)).toEqual(['Is there a free trial?']);
  });

  it('answers alternatives ("... or ...") as one question when one section ranks among the best three of each', async () => {
    // The two sides of one question: answered for the whole, so no "Yes." that only answers the first side.
    const or = ask('does the crew app work offline or does it need reception?');
    expect(or.answer).toBe('The crew app keeps working without reception and syncs when the phone is back online.');
    expect(or.sources.filter((s) => s.role === 'answer').map((s) => s.heading)).toEqual([
      'Does the crew app work offline?',
    ]);
    expect(ask('does the crew app work offline and does it need reception?').answer).toBe(`Yes. ${or.answer}`);
    // The second side names no section of its own: the word no page has is named, not the side as a question.
    expect(ask('are vaults billed monthly or is it by the week?').answer).toBe(
      'Storage billing runs invoice every vault on the same day each month. Part months are charged pro rata.\n\n' +
        "The Kartage website doesn't answer “week”, so I won't guess.",
    );
    expect(ask('are vaults billed monthly and is it by the week?').answer).toContain(
      partUnanswered('is it by the week?'),
    );
    // Only a message whose every later part is an alternative is one question: an "and" before them keeps its own.
    const three = ask('where is our data stored? and does the crew app work offline or does it need reception?');
    expect(three.sources.filter((s) => s.role === 'answer').map((s) => s.heading)).toEqual([
      'Where is our data stored?',
      'Does the crew app work offline?',
    ]);
    // Two questions of their own joined by "or", on a site where neither's section is among the other's best three:
    // each is answered from its own section.
    const site = await siteIndex(WRITTEN, [...PAGES, ...MORE_PAGES]);
    const two = askSite(
      { index: site, pricing, origin: ORIGIN, now: NOON },
      { question: 'is there a free trial or where is our data stored?' },
    );
    expect(two.sources.filter((s) => s.role === 'answer').map((s) => s.heading)).toEqual([
      'Is there a free trial?',
      'Where is our data stored?',
    ]);
  });

  it('names the words of a part no page has, and nothing when every word is known', () => {
    expect(ask('no signal out bush, will the crew app still go with hubspot and zoho?').answer).toBe(
      'The crew app keeps working without reception and syncs when the phone is back online.\n\n' +
        "The Kartage website doesn't answer “hubspot zoho”, so I won't guess.",
    );
  });

  it('lists the related sections it found when it does not answer, linked under their page and heading', () => {
    const r = ask('what is the storage warehouse billing integration with xero');
    expect(r).toMatchObject({ answered: false, reason: 'no-match' });
    const [lead, list] = r.answer.split('\n\n');
    expect(lead).toBe(`${NO_ANSWER} ${NO_ANSWER_RELATED}`);
    expect(list!.split('\n')[0]).toBe('- [Storage: Billing runs](https://kartage.test/product/storage)');
    expect(list!.split('\n')).toHaveLength(r.sources.length);
    expect(r.sources.every((s) => s.role === 'related' && s.slug === 'product/storage')).toBe(true);
  });

  it('quotes what the section says of a plan the question names, in any part, without a bare "Yes."', () => {
    const TRIAL =
      'Starter and Growth come with a 30-day trial. Professional and Enterprise start with a scoped proposal instead.';
    expect(ask('is there a free trial for professional?').answer).toBe(TRIAL);
    const r = ask('what does the growth plan include for storage billing? is there a free trial?');
    expect(r.answer.split('\n\n').at(-1)).toBe(TRIAL);
  });

  it('lists sections near the answer as related, after it', () => {
    const r = ask('what does kartage do for storage?');
    const [first, ...rest] = r.sources.map((s) => [s.role, s.slug]);
    expect(first).toEqual(['answer', 'product/storage']);
    expect(rest.length).toBeGreaterThan(0);
    for (const s of rest) expect(s).toEqual(['related', 'product/storage']);
  });

  it('answers a follow-up of few words from the earlier turn’s topic', () => {
    const r = ask('and for Growth?', [{ question: 'is there a free trial?' }]);
    const answers = r.sources.filter((s) => s.role === 'answer').map((s) => s.heading);
    expect(answers).toEqual(['Is there a free trial?']);
    expect(r.answer).toContain('Starter and Growth come with a 30-day trial.');
  });
});

/** Pages that put other sections among the best three of a trial and of where data is kept. */
const MORE_PAGES = [
  page(
    'trial',
    'Trial',
    [
      '# Trial',
      '',
      '## How the free trial starts',
      '',
      'A free trial starts on the day a product specialist sets up your price list.',
      '',
      '## After the free trial',
      '',
      'At the end of the free trial you choose a plan or stop.',
    ].join('\n'),
  ),
  page(
    'hosting',
    'Hosting',
    [
      '# Hosting',
      '',
      '## Where backups of our data are stored',
      '',
      'Backups of customer data are stored in a second region every hour.',
      '',
      '## Exporting our data',
      '',
      'Your data can be exported as CSV at any time, wherever it is stored.',
    ].join('\n'),
  ),
];
