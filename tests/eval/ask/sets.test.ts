// The judged sets' splits (eval/ask/splits.json): fixed once, a partition of the set files, and the test split (with
// every fresh set) kept out of what the product learns. What concerns the test split is checked by counts only: its
// questions are never printed.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASK_ASKED as asked } from '../../../src/build/ask-hints.ts';
import { siteSections, unknownRefs } from '../../../eval/ask/sections.ts';
import {
  allSets,
  DEV_SETS,
  freshSets,
  loadSet,
  questionsOf,
  type SetFile,
  setFilesOnDisk,
  setsOf,
  squashQuestion,
  TEST_SETS,
} from '../../../eval/ask/sets.ts';
import { PROJECT_ROOT } from '../../helpers/server.ts';

const heldOut = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `ask-held-out-${from + i}.json`);

describe('the splits', () => {
  it('are the ones fixed: test held-out-11 to 15 and the fresh sets; dev the tuning set, held-out to 10, and later', () => {
    expect(DEV_SETS.map((x) => x.file).slice(0, 11)).toEqual([
      'ask-judged.json',
      'ask-held-out.json',
      ...heldOut(2, 10),
    ]);
    expect(
      DEV_SETS.slice(11).every((x) => x.file.endsWith('-dev.json')),
      'a dev set added later is named *-dev',
    ).toBe(true);
    expect(TEST_SETS.map((x) => x.file)).toEqual(heldOut(11, 15));
    expect(setsOf('test').map((x) => x.file)).toEqual([...heldOut(11, 15), ...freshSets().map((x) => x.file)]);
    expect(freshSets().every((x) => /^fresh-.+\.json$/.test(x.file))).toBe(true);
  });

  it('partition the set files: each file on disk in exactly one split, each set named once', () => {
    const named = allSets().map((x) => x.file);
    expect([...named].sort()).toEqual(setFilesOnDisk());
    expect(new Set(named).size).toBe(named.length);
    expect(new Set(allSets().map((x) => x.set)).size).toBe(named.length);
    const dev = new Set(DEV_SETS.map((x) => x.file));
    expect(setsOf('test').filter((x) => dev.has(x.file))).toEqual([]);
  });

  it('every set file is a judged set (the schema), its ids unique, every set says how it was used', () => {
    for (const x of allSets()) {
      const { questions } = loadSet(x.file);
      expect(new Set(questions.map((q) => q.id)).size, x.file).toBe(questions.length);
      expect(x.use.length, x.file).toBeGreaterThan(10);
    }
  });

  it('no question of the test split or a fresh set is a dev question (a count: none is printed)', () => {
    const dev = new Set(questionsOf(DEV_SETS).map((q) => squashQuestion(q.question)));
    expect(questionsOf(setsOf('test')).filter((q) => dev.has(squashQuestion(q.question))).length).toBe(0);
  });

  it('name only sections the built site has (dev listed, the test split counted)', () => {
    const sections = siteSections(join(PROJECT_ROOT, 'build'));
    expect(sections.length).toBeGreaterThan(500);
    const refs = (sets: readonly SetFile[]) =>
      questionsOf(sets).flatMap((q) => [...(q.answers ?? []), ...(q.parts ?? []).flat()]);
    expect(unknownRefs(sections, refs(DEV_SETS))).toEqual([]);
    expect(unknownRefs(sections, refs(setsOf('test'))).length).toBe(0);
  });
});

describe('the product learns no test-split or fresh question (src/build/ask-asked.json)', () => {
  const test = setsOf('test');

  it('holds no question of theirs (counts only)', () => {
    const texts = new Set(asked.map((a) => squashQuestion(a.question)));
    expect(
      questionsOf(test).filter((q) => texts.has(squashQuestion(q.question))).length,
      'test or fresh questions learned',
    ).toBe(0);
  });
});
