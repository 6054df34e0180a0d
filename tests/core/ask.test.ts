// The assistant's parts on their own: sections and sentences, handoff intents and hours, follow-ups, and answers
// built only of quoted sentences (src/core/ask/). Pricing is in tests/core/ask/pricing.test.ts.
import { describe, expect, it } from 'vitest';
import pricingData from '../../content/data/pricing.json' with { type: 'json' };
import { PricingSchema } from '../../src/contract/content.ts';
import { ASK_TUNING, askSite, NO_ANSWER } from '../../src/core/ask/answer.ts';
import { handoffFor, handoffIntent, isSupportRequest, supportHours } from '../../src/core/ask/handoff.ts';
import { askIndexOf } from '../../src/core/ask/index.ts';
import { askingSentences, isFollowUp, messageGroups, questionParts, termGroups } from '../../src/core/ask/question.ts';
import { plainOf, sentencePlain, sentencesOf, splitSections, splitSentences } from '../../src/core/ask/sections.ts';
import { inventedSentences } from '../helpers/ask-metrics.ts';

const pricing = PricingSchema.parse(pricingData);
const sentences = (text: string) => splitSentences(text).map(({ start, end }) => text.slice(start, end));

describe('sentences', () => {
  it('splits on full stops but not after abbreviations, inside amounts or inside links', () => {
    expect(
      sentences('Use a dolly, e.g. for pianos. Kartage Pty Ltd is in Collingwood. It costs $1,890.50 a month.'),
    ).toEqual(['Use a dolly, e.g. for pianos.', 'Kartage Pty Ltd is in Collingwood.', 'It costs $1,890.50 a month.']);
    expect(sentences('See [the guide. It helps](https://x.example/a.b). Then call.')).toEqual([
      'See [the guide. It helps](https://x.example/a.b).',
      'Then call.',
    ]);
    expect(sentences('**Never log out. Really.** Restarting is fine.')).toEqual([
      '**Never log out. Really.** Restarting is fine.',
    ]);
  });

  it('splits where a lower-case word starts the next sentence after a number', () => {
    expect(sentences('Annual billing takes two months off. 30-day trial on Starter and Growth.')).toEqual([
      'Annual billing takes two months off.',
      '30-day trial on Starter and Growth.',
    ]);
    expect(sentences('Version 2.5 ships today.')).toEqual(['Version 2.5 ships today.']);
  });

  it('takes list items and table rows as units, skips fences, labels and header rows', () => {
    const text = [
      'Intro line here.',
      '',
      '- **One:** first item.',
      '- Two items here',
      '',
      '| A | B |',
      '|---|---|',
      '| x | $1 |',
      '',
      '```',
      'code. here.',
      '```',
      '',
      'Label',
    ].join('\n');
    const units = sentencesOf(text, false);
    expect(units.map((u) => text.slice(u.start, u.end))).toEqual([
      'Intro line here.',
      '**One:** first item.',
      'Two items here',
      '| A | B |',
      '| x | $1 |',
    ]);
    expect(units[3]).toMatchObject({ row: true, header: true });
    expect(units[4]).toMatchObject({ row: true });
    expect(units[4]!.header).toBeUndefined();
  });

  it('plain text is what the page shows', () => {
    expect(plainOf('See the [crew app](https://k.example/crew) and **bold** `code` \\*x\\*.')).toBe(
      'See the crew app and bold code *x*.',
    );
    // A quote's markers are not shown (a text fragment with them finds nothing); a ">" inside a line stays.
    expect(plainOf('> Rebecca Tan, Sales, [Harbourline](/customers/harbourline-removals)')).toBe(
      'Rebecca Tan, Sales, Harbourline',
    );
    expect(plainOf('> "We went live.\n>\n> > Quoted again.')).toBe('"We went live. Quoted again.');
    expect(plainOf('Jobs > 5 m³ need two crew.')).toBe('Jobs > 5 m³ need two crew.');
  });
});

describe('sections', () => {
  const md = [
    '# Title',
    '',
    'Eyebrow',
    '',
    'Lead sentence here.',
    '',
    '## First',
    '',
    'One. Two.',
    '',
    '### Sub',
    '',
    'Three.',
    '',
    '#### Deep',
    '',
    'Four.',
    '',
    '## Empty',
    '',
    '## Last',
    '',
    'Five.',
  ].join('\n');
  const sections = splitSections('p', md, [
    { depth: 2, id: 'first', text: 'First' },
    { depth: 3, id: 'sub', text: 'Sub' },
    { depth: 2, id: 'empty', text: 'Empty' },
    { depth: 2, id: 'last', text: 'Last' },
  ]);

  it('cuts the intro, ## and ### sections, up to the next heading of any level', () => {
    expect(sections.map((s) => [s.heading, s.anchor])).toEqual([
      [null, undefined],
      ['First', 'first'],
      ['Sub', 'sub'],
      ['Last', 'last'],
    ]);
    expect(sections[0]!.text).toBe('# Title\n\nEyebrow\n\nLead sentence here.');
    expect(sections[2]!.text).toBe('### Sub\n\nThree.');
    expect(sections[3]!.text).toBe('## Last\n\nFive.');
  });

  it('each sentence is a range of its section text', () => {
    for (const s of sections)
      for (const u of s.sentences) expect(s.text.slice(u.start, u.end).length).toBeGreaterThan(0);
    expect(sections[1]!.sentences.map((u) => sentencePlain(sections[1]!.text, u))).toEqual(['One.', 'Two.']);
  });
});

describe('handoff', () => {
  it.each([
    ["I'd like to book a demo", 'demo'],
    ["I'm an assistant booking a demo for Jo from Acme Removals", 'demo'],
    ['can someone call me back tomorrow morning?', 'callback'],
    ['please ring me on 0412 345 678', 'callback'],
    ['can I leave a message for sales?', 'message'],
    ['nobody is answering, I want to leave a note', 'message'],
    ['can I talk to a real person', 'contact'],
    ['our crew app is not working since the update', 'contact'],
    ['I need a quote for my house move to Perth', 'contact'],
    ['can someone walk me thru the system next tues arvo?', 'demo'],
    ['i missed a call from you, can you try me again on my mobile?', 'callback'],
    ['pls leave a msg for the sales team', 'message'],
    ['can we get a session booked in with one of your product people?', 'demo'],
    ['please pass my details on to your sales team', 'contact'],
    ['can you send us a formal quote for two depots', 'contact'],
    ['we would like an enterprise proposal sent over this week', 'contact'],
    ['the xero sync isnt pushing invoices across since yesterday, who do i contact to get this fixed?', 'contact'],
  ] as const)('%s -> %s', (q, intent) => {
    expect(handoffIntent(q)?.intent).toBe(intent);
  });

  it('asks for nobody in a plain question', () => {
    for (const q of ['is there a free trial?', 'does the crew app work offline?', 'how much is Growth?'])
      expect(handoffIntent(q)).toBeUndefined();
  });

  it('reads a hypothetical fault or a question about reply times as a question, not a request', () => {
    for (const q of [
      'if the system goes down, what uptime do you guarantee?',
      'are you open on a saturday if something is broken?',
      'what happens if the crew app crashes mid-job?',
      'if i send a question through the contact page how quick does someone get back to me?',
      'is there a public status page where i can see if kartage is down',
    ])
      expect(handoffIntent(q), q).toBeUndefined();
    expect(isSupportRequest('is there a status page to check when kartage is down?')).toBe(false);
    expect(handoffIntent('the crew app crashes every time we open a job')?.intent).toBe('contact');
    expect(isSupportRequest('our invoices stopped syncing across to xero this morning')).toBe(true);
    expect(isSupportRequest('does a paid invoice sync across to xero?')).toBe(false);
  });

  it('reads customers having to ring the business as a question about the product, not a call back', () => {
    for (const q of [
      'can our storage customers change their own credit card details online or do they have to ring us',
      'do tenants need to call us to update their details?',
    ])
      expect(handoffIntent(q), q).toBeUndefined();
    expect(handoffIntent('can you ring us tomorrow?')?.intent).toBe('callback');
  });

  it('reads the visitor calling their own customer as a question, and a call for someone else as a call back', () => {
    for (const q of [
      'will kartage show me their history before I call them back?',
      'can the crew see notes when we ring them on the day?',
      'does it log it when i will call her back later?',
    ])
      expect(handoffIntent(q), q).toBeUndefined();
    for (const q of ["please call him back on 0412 345 678, he's free after 3", 'can sales ring them tomorrow?'])
      expect(handoffIntent(q)?.intent, q).toBe('callback');
  });

  it('reads a fault report in any form of the word as a request for support', () => {
    for (const q of [
      'none of our drivers can log into the crew app today',
      'we cannot sign in to the office side since 8am',
      "we're already customers, need urgent support with invoicing",
      'the storage billing run keeps erroring on our vault accounts',
      'invoices errored overnight and nothing went to xero',
      'crew app keeps freezing on the inventory screen',
      'photos are not saving on the crew app since this morning',
      "dispatch board won't save changes for tomorrow",
      'the portal is buggy for our customers today',
    ]) {
      expect(handoffIntent(q)?.intent, q).toBe('contact');
      expect(isSupportRequest(q), q).toBe(true);
    }
  });

  it('reads a call someone would like as a call back; sales getting back about a quote as an enquiry', () => {
    for (const q of [
      "Assistant here, acting for Priyanka Shah. She'd like a phone call tomorrow morning between 9 and 11.",
      'i would like a quick call about storage billing',
    ])
      expect(handoffIntent(q)?.intent, q).toBe('callback');
    expect(handoffIntent('does the crew app need a call recording feature')).toBeUndefined();
    expect(handoffIntent('we need a formal quote, can someone from sales get back to me by email')?.intent).toBe(
      'contact',
    );
    // Without a quote or sales, someone getting back is still a message.
    expect(handoffIntent('nobody is around, please get back to me when you are open')?.intent).toBe('message');
  });

  it('reads a quote to be put together, or being contacted at an address, as an enquiry', () => {
    for (const q of [
      'Can you get a quote together for Enterprise? about 14,000 moves a year. contact me at ops@example.com.au',
      'could you put a proposal together for us, 6 depots',
      'pls email me at jo@example.com with the details',
      "we've got 8 warehouses and want a proper quote for enterprise - can someone from sales get in touch by email",
      'could someone get in touch about pricing for 3 depots',
      'happy for you to get in touch by email',
    ])
      expect(handoffIntent(q)?.intent, q).toBe('contact');
    expect(handoffIntent('what does a quote for enterprise include?')).toBeUndefined();
  });

  it('reads a security bug someone found as a question for the disclosure policy, not a fault for support', () => {
    for (const q of [
      'I think I found a security bug in your customer portal. where do I report it?',
      'found a securty hole in kartage, who do i tell',
      'we found security issues in the crew app, how quickly will someone acknowledge the report?',
    ]) {
      expect(handoffIntent(q), q).toBeUndefined();
      expect(isSupportRequest(q), q).toBe(false);
    }
    // A bug that is not about security is still a fault.
    expect(isSupportRequest('the crew app has a bug since the update')).toBe(true);
  });

  it('knows the support hours: 7am to 7pm AEST (UTC+10), Monday to Saturday', () => {
    // Wednesday 25 November 2026, 12:00 AEST.
    expect(supportHours(Date.parse('2026-11-25T02:00:00Z'))).toEqual({ open: true, opens: '7am AEST tomorrow' });
    // 6:59am AEST Wednesday: closed, opens today.
    expect(supportHours(Date.parse('2026-11-24T20:59:00Z'))).toEqual({ open: false, opens: '7am AEST today' });
    // 7pm AEST Saturday: closed until Monday.
    expect(supportHours(Date.parse('2026-11-28T09:00:00Z'))).toEqual({ open: false, opens: '7am AEST Monday' });
    // Sunday noon AEST.
    expect(supportHours(Date.parse('2026-11-29T02:00:00Z')).open).toBe(false);
  });

  it('offers the phone now within hours, and says when a person replies outside them', () => {
    const open = handoffFor('contact', Date.parse('2026-11-25T02:00:00Z'), 'https://k.example');
    expect(open.label).toContain('call 1300 527 824 now');
    const closed = handoffFor('callback', Date.parse('2026-11-28T10:00:00Z'), 'https://k.example');
    expect(closed.label).toContain('7am AEST Monday');
    expect(closed.label).not.toContain('now');
    expect(handoffFor('demo', 0, 'https://k.example').url).toBe('https://k.example/demo');
  });
});

describe('askSite on a small site', () => {
  const page = (slug: string, title: string, markdown: string) => ({
    slug,
    title: `${title} | Kartage`,
    url: `https://k.example/${slug}`,
    markdown,
  });
  const index = askIndexOf([
    page(
      'faq',
      'FAQ',
      '# FAQ\n\n## Is there a free trial?\n\nYes. Starter and Growth come with a 30-day trial.\n\n## Do prices include GST?\n\nNo. Prices exclude GST.\n',
    ),
    page(
      'product/crew-app',
      'Crew app',
      '# Crew app\n\nThe app for crews.\n\n## Offline mode\n\nThe crew app works without signal and syncs later.\n',
    ),
    page(
      'pricing',
      'Pricing',
      '# Pricing\n\n## Compare plans\n\n| Plan | Price |\n|---|---|\n| Starter | $390 |\n| Growth | $890 |\n| Professional | $1,890 |\n\n## Add-ons\n\n| Add-on | Price |\n|---|---|\n| Extra office user | $45 |\n\n## GST\n\nAll prices exclude GST.\n',
    ),
  ]);
  const at = Date.parse('2026-11-25T02:00:00Z');
  const ask = (question: string, conversation?: Parameters<typeof askSite>[1]['conversation']) =>
    askSite({ index, pricing, origin: 'https://k.example', now: at }, { question, conversation });

  it('reads chat shorthand as the words it stands for ("u", "r", "pls" are nothing; "devs", "inc" are words)', () => {
    const words = (q: string) => termGroups(q, index).map((g) => g.word);
    expect(words('r u guys open, pls?')).toEqual(['open']);
    expect(words('is that inc gst')).toEqual(['including', 'gst']);
    expect(words('do devs get notice')).toEqual(['developers', 'notice']);
  });

  it('"constructor" is a word on no page, not a member every object has', () => {
    const groups = termGroups('does the crew app have a constructor mode?', index);
    expect(groups.map((g) => [g.word, g.unknown])).toEqual([
      ['crew', false],
      ['app', false],
      ['constructor', true],
      ['mode', false],
    ]);
    expect(index.wordCount('constructor')).toBe(0);
    expect(handoffIntent('constructor')).toBeUndefined();
    expect(ask('does the crew app have a constructor mode?').answered).toBe(false);
  });

  it('answers with the section that holds the question, quoted and linked to it', () => {
    const r = ask('can we trial it for free?');
    expect(r.answered).toBe(true);
    expect(r.sources[0]).toMatchObject({ slug: 'faq', heading: 'Is there a free trial?', role: 'answer' });
    expect(r.answer).toBe('Yes. Starter and Growth come with a 30-day trial.');
    expect(r.sources[0]!.url).toMatch(/^https:\/\/k\.example\/faq#:~:text=/);
    expect(r.handoff).toBeNull();
    expect(inventedSentences(r, pricing)).toEqual([]);
  });

  it('says plainly when no page names what is asked, offers a person, invents nothing', () => {
    const r = ask('do you integrate with salesforce?');
    expect(r.answered).toBe(false);
    expect(r.answer.startsWith(NO_ANSWER)).toBe(true);
    expect(r.handoff?.intent).toBe('contact');
    expect(r.sources.every((s) => s.role === 'related')).toBe(true);
    expect(inventedSentences(r, pricing)).toEqual([]);
  });

  it("lists a two-part question's related sections last part first (the first part's answer already leads)", () => {
    const two = askIndexOf([
      page('faq', 'FAQ', '# FAQ\n\n## Is there a free trial?\n\nYes. Every plan has a free trial.\n'),
      page('trial', 'Trial', '# Trial\n\n## Trial terms\n\nThe free trial needs no card.\n'),
      page('crew', 'Crew app', '# Crew app\n\n## Offline mode\n\nThe crew app works without signal.\n'),
      page('lifts', 'Lifts', '# Lifts\n\n## Jobs in lifts\n\nWith no signal the crew app keeps every job.\n'),
    ]);
    const r = askSite(
      { index: two, pricing, origin: 'https://k.example', now: at },
      { question: 'is there a free trial, and does the crew app work without signal?' },
    );
    expect(r.answered).toBe(true);
    expect(r.sources.map((s) => [s.heading, s.role])).toEqual([
      ['Is there a free trial?', 'answer'],
      ['Offline mode', 'answer'],
      ['Jobs in lifts', 'related'],
      ['Trial terms', 'related'],
    ]);
  });

  describe('learned questions (asked before, with the sections that answer them)', () => {
    const pages = [
      page(
        'product/crew-app',
        'Crew app',
        '# Crew app\n\nThe app for crews.\n\n## Offline mode\n\nThe crew app saves every job on the phone with no signal.\n\n' +
          '## Photos\n\nCrews take condition photos of each item on the phone, and the photos save to the job.\n\n' +
          '## Lifts\n\nBook the lift before the move.\n',
      ),
    ];
    const learned = [
      {
        question: 'do photos still save in a lift?',
        sections: [{ slug: 'product/crew-app', heading: 'Offline mode' }],
      },
    ];
    const on = (index: ReturnType<typeof askIndexOf>) => (question: string) =>
      askSite({ index, pricing, origin: 'https://k.example', now: at }, { question });
    const knows = askIndexOf(pages, { learned });
    const q = 'will photos save on the phone in the lift';

    it('a question that reads like a learned one is answered from its sections first', () => {
      // The words alone find the photos section first; the learned question says offline mode answers it.
      expect(on(askIndexOf(pages))(q).sources[0]!.heading).toBe('Photos');
      const r = on(knows)(q);
      expect(r.answered).toBe(true);
      expect(r.sources.map((s) => [s.heading, s.role])).toEqual([
        ['Offline mode', 'answer'],
        ['Photos', 'related'],
        ['Lifts', 'related'],
      ]);
      expect(r.answer).toContain('no signal');
      expect(inventedSentences(r, pricing)).toEqual([]);
      // A question about photos that is not near it keeps its own ranking.
      expect(on(knows)('who takes condition photos of each item?').sources[0]!.heading).toBe('Photos');
    });

    it('a question near a learned one is answered from its sections even when no section holds enough of it', () => {
      const far = 'will my photos still save in the lift at the apartment';
      // "apartment" is on no page: on its words alone no section holds enough of the question.
      expect(on(askIndexOf(pages))(far).answered).toBe(false);
      const r = on(knows)(far);
      expect(r.answered).toBe(true);
      expect(r.sources[0]).toMatchObject({ heading: 'Offline mode', role: 'answer' });
      expect(inventedSentences(r, pricing)).toEqual([]);
    });

    it('answers when the section a learned question puts first holds the question, though the best does not', () => {
      const portal = [
        page(
          'portal',
          'Portal',
          '# Portal\n\nThe portal.\n\n## Portal passwords\n\nPortal passwords went in 2026; older portal passwords were ' +
            'dropped.\n\n## How it works\n\nCustomers open the portal from an emailed link; there is no password to create.\n',
        ),
        page(
          'crm',
          'CRM',
          '# CRM\n\nEvery enquiry.\n\n## Customers\n\nCustomers and their moves, quotes and invoices.\n\n## Create\n\n' +
            'Create a job from an enquiry.\n',
        ),
      ];
      const asked = [
        {
          question: 'do customers have to create a password for the portal',
          sections: [{ slug: 'portal', heading: 'How it works' }],
        },
      ];
      const question = 'do customers have to create a password for the portal, as lots of them are older';
      // Thresholds set so that the words' best section ("Portal passwords", 0.61 of the question) does not hold
      // enough, the learned question's ("How it works", 0.71) does, and nearness alone would not answer.
      const before = { ...ASK_TUNING };
      Object.assign(ASK_TUNING, { minCoverage: 0.65, learnedAnswer: 2 });
      try {
        const plain = on(askIndexOf(portal))(question);
        expect(plain.answered).toBe(false);
        expect(plain.sources[0]!.heading).toBe('Portal passwords');
        const r = on(askIndexOf(portal, { learned: asked }))(question);
        expect(r.answered).toBe(true);
        expect(r.sources[0]).toMatchObject({ heading: 'How it works', role: 'answer' });
        expect(r.answer).toContain('no password to create');
      } finally {
        Object.assign(ASK_TUNING, before);
      }
    });

    it('a follow-up is compared with learned questions in its context: the earlier question and its own words', () => {
      const conversation = [
        { question: 'will photos save on the phone', sources: [{ slug: 'product/crew-app', heading: 'Photos' }] },
      ];
      const follow = (index: ReturnType<typeof askIndexOf>) =>
        askSite(
          { index, pricing, origin: 'https://k.example', now: at },
          { question: 'and in the lift?', conversation },
        );
      expect(follow(askIndexOf(pages)).sources[0]!.heading).toBe('Lifts');
      expect(follow(knows).sources[0]!.heading).toBe('Offline mode');
      // On its own words alone it is not near the learned question.
      expect(knows.nearestAsked('and in the lift?').similarity).toBeLessThan(0.35);
    });

    it('measures how near: the shared terms weighed by idf over all of both; the sections come with it', () => {
      expect(knows.data.learned).toEqual([[['lift', 'photo', 'save', 'still'], [1]]]);
      expect(Object.keys(knows.data.weights)).toEqual(['lift', 'photo', 'save', 'still']);
      const same = knows.nearestAsked('do photos still save in a lift?');
      expect(same.similarity).toBeCloseTo(1, 3);
      expect(same.sections).toEqual([1]);
      const near = knows.nearestAsked(q).similarity;
      expect(near).toBeGreaterThan(0.35);
      expect(near).toBeLessThan(0.9);
      expect(knows.nearestAsked('who takes condition photos of each item?').similarity).toBeLessThan(0.35);
      expect(knows.nearestAsked('book the move').similarity).toBe(0);
      expect(askIndexOf(pages).nearestAsked(q)).toEqual({ similarity: 0, sections: [], gap: 0 });
    });
  });

  describe('known gaps (questions asked before that no page answers)', () => {
    const filler = ['Quoting', 'Dispatch', 'Storage', 'Invoicing', 'Reporting', 'Portal', 'Crews', 'Trucks', 'Payroll']
      .map((w) => `## ${w}\n\n${w} is part of the suite.\n`)
      .join('\n');
    // The tenant API is named on the site (its billing section), but no page gives its limit.
    const pages = [
      page(
        'product/api',
        'API',
        `# API\n\nOur APIs, for developers.\n\n## Rate limits\n\nThe content API allows 60 requests per minute.\n\n${filler}` +
          '\n## Tenant billing\n\nTenant accounts are billed monthly.\n',
      ),
    ];
    const gap = 'how many requests per minute does the tenant API allow?';
    const learned = [
      {
        question: 'what is the rate limit of the content api?',
        sections: [{ slug: 'product/api', heading: 'Rate limits' }],
      },
    ];
    const known = askIndexOf(pages, { gaps: [gap], learned });
    const on = (index: ReturnType<typeof askIndexOf>) => (question: string) =>
      askSite({ index, pricing, origin: 'https://k.example', now: at }, { question });

    it('a question nearer a known gap than any learned question is told so plainly, not quoted a near miss', () => {
      const q = 'how many requests a minute does the tenant api allow us to make';
      // Without the gap the content API's limit is a near miss that holds all but one of the question's words.
      expect(on(askIndexOf(pages, { learned }))(q).answered).toBe(true);
      const r = on(known)(q);
      expect(r.answered).toBe(false);
      expect(r.answer.startsWith(NO_ANSWER)).toBe(true);
      expect(r.sources.every((s) => s.role === 'related')).toBe(true);
      expect(inventedSentences(r, pricing)).toEqual([]);
      // Nearer the learned question than the gap: the content API's limit is what the page says.
      const near = known.nearestAsked('how many requests per minute is the content api rate limit');
      expect(near.gap).toBeGreaterThan(0.25);
      expect(near.similarity).toBeGreaterThan(near.gap);
      expect(on(known)('how many requests per minute is the content api rate limit').answered).toBe(true);
    });

    it("measures the nearest gap like a learned question: the shared terms weighed by idf over all of both's", () => {
      expect(known.data.gaps).toEqual([['allow', 'api', 'mani', 'minut', 'request', 'tenant']]);
      expect(known.nearestAsked(gap).gap).toBeCloseTo(1, 2);
      const half = known.nearestAsked('how many requests per minute').gap;
      expect(half).toBeGreaterThan(0.25);
      expect(half).toBeLessThan(0.75);
      expect(known.nearestAsked('quoting is part of the suite').gap).toBe(0);
      expect(askIndexOf(pages).nearestAsked(gap).gap).toBe(0);
    });
  });

  it('understands a follow-up from the earlier turn', () => {
    const first = ask('does the crew app work without signal?');
    expect(first.sources[0]!.heading).toBe('Offline mode');
    const r = ask('and does it sync later?', [{ question: first.question, sources: first.sources.slice(0, 1) }]);
    expect(r.sources[0]!.heading).toBe('Offline mode');
  });

  it('splits a question with two needs where the second asks again ("and is...", ", or can I...")', () => {
    expect(questionParts('is there a free trial and do prices include GST?')).toEqual([
      'is there a free trial',
      'do prices include GST?',
    ]);
    expect(questionParts('does the board stop me saving a double booking, or can i push it through anyway?')).toEqual([
      'does the board stop me saving a double booking',
      'can i push it through anyway?',
    ]);
    // "or" inside one need is not a second one.
    expect(questionParts('can crews use an iphone or android phone?')).toEqual([
      'can crews use an iphone or android phone?',
    ]);
  });

  it('reads the sentences of a message that tell, not ask, as its context', () => {
    expect(askingSentences('is there a free trial? our office has three people.')).toEqual({
      asking: 'is there a free trial?',
      context: 'our office has three people.',
    });
    expect(askingSentences('our crew lose signal in lifts. does the app work offline')).toEqual({
      asking: 'does the app work offline',
      context: 'our crew lose signal in lifts.',
    });
    // Every sentence asks, or none does: the message is the question.
    expect(askingSentences('is there a trial? does it include GST?')).toBeUndefined();
    expect(askingSentences('our crews work offline. they use the app.')).toBeUndefined();
    expect(askingSentences('does the crew app work offline?')).toBeUndefined();
    // The context's words are optional: they count where a section holds them, never against one.
    const groups = messageGroups('can we trial it? prices matter to our three crews', index);
    expect(groups.filter((g) => !g.optional).map((g) => g.word)).toEqual(['trial']);
    expect(groups.filter((g) => g.optional).map((g) => g.word)).toContain('prices');
  });

  it('answers a question whose other sentence tells a story the section does not', () => {
    const q =
      'does the crew app work without signal? last week our driver lost a whole morning of quotes in a basement';
    const r = ask(q);
    expect(r.answered).toBe(true);
    expect(r.sources[0]!.heading).toBe('Offline mode');
    // Read whole, the story's words (on no page) would weigh against every section.
    expect(
      termGroups(q, index)
        .filter((g) => g.unknown)
        .map((g) => g.word),
    ).toContain('basement');
    expect(messageGroups(q, index).filter((g) => g.unknown)).toEqual([]);
  });

  it('reads "their", "its", "these" as pointing back at the earlier turn\'s subject', () => {
    for (const q of ['how long did their rollout take?', 'how big is its fleet', 'are these on every plan'])
      expect(isFollowUp(q, termGroups(q, index)), q).toBe(true);
    const own = 'how long does the crew app take to sync without signal';
    expect(isFollowUp(own, termGroups(own, index))).toBe(false);
  });

  it('a section found by its hints answers a paraphrase in its own words; hints add words, never weight', () => {
    const pages = [
      page(
        'product/crew-app',
        'Crew app',
        '# Crew app\n\n## Offline mode\n\nThe crew app works without signal and syncs later.\n',
      ),
      page('faq', 'FAQ', '# FAQ\n\n## Is there a free trial?\n\nYes. Starter and Growth come with a 30-day trial.\n'),
    ];
    const hints = (slug: string) => (heading: string | null) =>
      slug === 'product/crew-app' && heading === 'Offline mode' ? ['no bars', 'app crew'] : [];
    const plain = askIndexOf(pages);
    const hinted = askIndexOf(pages, { hintsOf: hints });
    const q = 'is it ok with no bars?';
    const on = (index: typeof plain) =>
      askSite({ index, pricing, origin: 'https://k.example', now: at }, { question: q });
    expect(on(plain).answered).toBe(false);
    const r = on(hinted);
    expect([r.answered, r.sources[0]?.heading]).toEqual([true, 'Offline mode']);
    expect(r.answer).toBe('The crew app works without signal and syncs later.');
    // "crew" and "app" are the section's own words: the hint adds no weight to them, nor to its length.
    expect([...hinted.postings('crew')!]).toEqual([...plain.postings('crew')!]);
    expect(hinted.data.lengths).toEqual(plain.data.lengths);
    expect([...hinted.postings('bar')!]).toEqual([0, 1, 0]);
  });

  it('a follow-up with no word of its own asks again about the earlier subject', () => {
    const first = ask('does the crew app work without signal?');
    const turn = [{ question: first.question, sources: first.sources.slice(0, 1) }];
    for (const q of ['and what about before that?', 'what did they do then?']) {
      const r = ask(q, turn);
      expect(r.answered, q).toBe(true);
      expect(r.sources[0]!.heading, q).toBe('Offline mode');
    }
  });

  it('hands a request for a person over, with the label of the hour', () => {
    const r = ask('can someone call me back this afternoon?');
    expect(r.handoff?.intent).toBe('callback');
    expect(r.handoff?.label).toContain('1300 527 824');
  });

  it('the never-invent check catches a sentence that is not in its cited section', () => {
    const r = ask('can we trial it for free?');
    expect(inventedSentences({ ...r, answer: `${r.answer}\n\nEnterprise is free forever.` }, pricing)).toEqual([
      'Enterprise is free forever.',
    ]);
  });
});
