/**
 * @module The one place the evaluation meets the product engine ("ours"): swap the engine here. It builds the
 * engine's index from a build's pages with the site's hints and written questions but no asked question, so no
 * judged set is learned (src/build/ask-asked.json is not read), and answers as POST /api/v1/ask does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pricingData from '../../content/data/pricing.json' with { type: 'json' };
import { decodeEmbedding, EMBEDDING_FILE } from '../../src/core/ask-indexer/embedding-file.ts';
import { createContentFiles } from '../../src/adapters/content-files.ts';
import { embeddingParts, sectionTexts } from '../../src/build/ask-embedding.ts';
import { learningFrom } from '../../src/build/ask-hints.ts';
import { PricingSchema } from '../../src/contract/content.ts';
import { askSite, NO_ANSWER, NO_ANSWER_RELATED } from '../../src/core/ask/answer.ts';
import { partUnanswered } from '../../src/core/ask/compose.ts';
import type { AskIndex } from '../../src/core/ask/index.ts';
import { type AskSource, askIndexOf } from '../../src/core/ask-indexer/assemble.ts';
import { workingSentence } from '../../src/core/ask/pricing.ts';
import type { ContentSource } from '../../src/core/content-source.ts';
import type { Asker } from './metrics.ts';

/** What the runner calls the engine. */
export const ENGINE_NAME = 'askSite (src/core/ask), no judged set learned';

/** The engine's own words in a response, which the never-invent check lets through. */
export const ENGINE_WORDS = {
  /** The one sentence of an unanswered response. */
  noAnswer: NO_ANSWER,
  /** The sentence before an unanswered response's related links. */
  relatedLead: NO_ANSWER_RELATED,
  /** The pricing working as the answer states it. */
  working: workingSentence,
  /** The sentence naming a part of the question the site does not answer. */
  partUnanswered,
};

/** The price list the engine prices from. */
export const PRICING = PricingSchema.parse(pricingData);

/** A fixed hour within support hours (noon AEST on a Wednesday): every handoff label is the same on every run. */
export const NOW = Date.parse('2026-11-25T02:00:00Z');

/** A build's pages as the engine's index reads them. */
export function askSourcesOf(content: ContentSource): AskSource[] {
  return content.entries().map((e) => {
    const p = content.page(e.slug)!;
    return { slug: p.slug, title: p.title, url: p.url, markdown: p.markdown, kind: e.kind };
  });
}

/**
 * The product's index over a build's pages, learning what the build learns but no judged question, with the build's
 * sentence-model table (it holds the same sections). The sections' heading and text vectors, which the build writes
 * only when the shipped models read them, are worked out from the table when missing, so `npm run ask:fit` can weigh
 * every feature (the shipped models answer the same with or without them).
 */
export function productIndex(buildDir: string): AskIndex {
  const table = existsSync(join(buildDir, EMBEDDING_FILE))
    ? decodeEmbedding(readFileSync(join(buildDir, EMBEDDING_FILE)))
    : undefined;
  const content = createContentFiles(buildDir);
  const index = askIndexOf(askSourcesOf(content), learningFrom([]), table);
  if (table && !table.sectionRows.length) {
    const pieces = {
      dims: table.dims,
      pieces: [...table.pieces],
      scores: table.scores,
      rows: table.pieceRows,
      scale: table.scale,
    };
    const texts = sectionTexts(index.data, (slug) => content.page(slug)?.markdown ?? '', []);
    table.sectionRows = embeddingParts(pieces, texts).sectionRows;
  }
  return index;
}

/** The product engine over a build's pages (a data folder, e.g. `build/`), learning no judged set. */
export function createAsker(buildDir: string): Asker {
  const content = createContentFiles(buildDir);
  const index = productIndex(buildDir);
  const deps = { index, pricing: PRICING, origin: content.origin, now: NOW };
  return (question, conversation) => askSite(deps, { question, conversation });
}
