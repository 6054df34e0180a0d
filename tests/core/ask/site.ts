/**
 * A small hand-made site for the chat's stage tests: a few pages with headed sections, the site's real lexicon, a
 * handful of written questions and labelled requests, indexed in memory (no build).
 */
import lexicon from '../../../content/data/lexicon.json' with { type: 'json' };
import pricingData from '../../../content/data/pricing.json' with { type: 'json' };
import { ASK_INTENTS, cachedIntentModel } from '../../../src/build/ask-hints.ts';
import { PricingSchema } from '../../../src/contract/content.ts';
import { cachedPieceTable, EMBEDDING_CACHE, embeddingParts, sectionTexts } from '../../../src/build/ask-embedding.ts';
import { decodeEmbedding, encodeEmbedding } from '../../../src/core/ask-indexer/embedding-file.ts';
import { assembleAskIndex, askIndexOf, type AskSource } from '../../../src/core/ask-indexer/assemble.ts';
import { LexiconSchema } from '../../../src/core/lexicon.ts';

export const ORIGIN = 'https://kartage.test';
export const pricing = PricingSchema.parse(pricingData);
/** Wednesday 25 November 2026, noon AEST: within support hours. */
export const NOON = Date.parse('2026-11-25T02:00:00Z');

export const page = (slug: string, title: string, markdown: string): AskSource => ({
  slug,
  title: `${title} | Kartage`,
  url: `${ORIGIN}/${slug}`,
  markdown,
});

/** The site's lexicon (content/data/lexicon.json), checked. */
export const SITE_LEXICON = LexiconSchema.parse(lexicon);

export const PAGES: AskSource[] = [
  page(
    'faq',
    'Frequently asked questions',
    [
      '# Frequently asked questions',
      '',
      'Straight answers to common questions.',
      '',
      '## Is there a free trial?',
      '',
      'Yes. Starter and Growth come with a 30-day trial. Professional and Enterprise start with a scoped proposal instead.',
      '',
      '## Does the crew app work offline?',
      '',
      'Yes. The crew app keeps working without reception and syncs when the phone is back online.',
      '',
      '## Where is our data stored?',
      '',
      'All customer data is hosted in Sydney, Australia, with backups in Melbourne.',
    ].join('\n'),
  ),
  page(
    'product/storage',
    'Storage',
    [
      '# Storage',
      '',
      'Warehouse and self-storage operations in one place.',
      '',
      '## Billing runs',
      '',
      'Storage billing runs invoice every vault on the same day each month. Part months are charged pro rata.',
      '',
      '## Lot tracking',
      '',
      'Every lot has a barcode label and a location, so a count is a walk with a scanner.',
    ].join('\n'),
  ),
  page(
    'pricing',
    'Pricing',
    [
      '# Pricing',
      '',
      'Plans for moving and storage businesses. Prices exclude GST.',
      '',
      '## Compare plans',
      '',
      '| Plan | Price |',
      '| --- | --- |',
      '| Starter | $390 a month |',
      '| Growth | $890 a month |',
      '',
      '## Add-ons',
      '',
      'An extra office user is $45 per user per month. An extra crew device is $12 per device per month.',
      '',
      '## Annual billing',
      '',
      'Annual billing takes two months off.',
    ].join('\n'),
  ),
];

/** Questions written for sections (the build's ask-questions.json's role: every section of the real site has some). */
const written = (slug: string, heading: string | null, questions: string[]) =>
  questions.map((question) => ({ question, sections: [{ slug, heading }] }));
export const WRITTEN = [
  ...written('faq', 'Is there a free trial?', [
    'can we try it before we pay?',
    'is there a free trial',
    'trial length?',
  ]),
  ...written('faq', 'Does the crew app work offline?', [
    'no signal out bush, will the app still go?',
    'does the crew app work without reception',
  ]),
  ...written('faq', 'Where is our data stored?', ['where is our data hosted?', 'is the data kept in australia']),
  ...written('product/storage', 'Billing runs', ['how do you bill vaults each month?', 'are part months pro rata']),
  ...written('product/storage', 'Lot tracking', ['how do we count stock in the warehouse?', 'do lots get barcodes']),
  ...written('pricing', 'Compare plans', ['how much is starter a month', 'what does growth cost']),
  ...written('pricing', 'Add-ons', ['how much is an extra user', 'price of another crew device']),
];

/** Labelled requests (the build's ask-intents.json's role), a few of each. */
export const INTENT_EXAMPLES = [
  ...['book a demo please', 'can i see a demo of kartage next week', 'we want a walkthrough of the product'].map(
    (text) => ({
      text,
      intent: 'demo' as const,
    }),
  ),
  ...['call me back on 0400 000 111', 'can someone ring me tomorrow', 'please phone me this arvo'].map((text) => ({
    text,
    intent: 'callback' as const,
  })),
  ...['our invoices stopped syncing, need support', 'none of us can log in', 'the app keeps crashing'].map((text) => ({
    text,
    intent: 'support' as const,
  })),
  ...['i want to talk to sales', 'have someone get in touch about pricing for us', 'put me in touch with a person'].map(
    (text) => ({ text, intent: 'contact' as const }),
  ),
  ...[
    'can i leave a message for sales',
    'nobody is around, leave a note for the team',
    'leave my details for later',
  ].map((text) => ({ text, intent: 'message' as const })),
  ...['how long is a demo', 'does the crew app call customers', 'what does storage cost', 'is there a trial'].map(
    (text) => ({
      text,
      intent: 'none' as const,
    }),
  ),
];

/**
 * The small site's index, learning its written questions (those with no section: known gaps) and the site's own
 * labelled requests, with a sentence-model table of its sections and known gaps made from the build's distilled piece
 * table (cached by the build: no model runs here).
 */
export async function siteIndex(questions = WRITTEN, pages = PAGES) {
  const given = { lexicon: SITE_LEXICON, intents: ASK_INTENTS, questions };
  // Trained once and kept by the build's cache (the same model; training takes seconds).
  const learning = { ...given, intentModel: cachedIntentModel(given) };
  const { data } = assembleAskIndex(pages, learning);
  const markdown = (slug: string) => pages.find((p) => p.slug === slug)?.markdown ?? '';
  const written = questions.flatMap((q) => q.sections.map((s) => ({ ...s, questions: [q.question] })));
  const pieces = await cachedPieceTable(EMBEDDING_CACHE);
  const gaps = questions.filter((q) => !q.sections.length).map((q) => q.question);
  const table = decodeEmbedding(
    encodeEmbedding(embeddingParts(pieces, sectionTexts(data, markdown, written), true, gaps)),
  );
  return askIndexOf(pages, learning, table);
}
