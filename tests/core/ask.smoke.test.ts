// The assistant on a few dozen dev questions (eval/ask), as a smoke floor: figures a little under what the engine
// reached when the floors were set, so it fails on a real break, not on a ranking change (`npm run eval:ask` holds
// the figures on every split, beside the baselines). And over every dev question: no sentence shown that is not in
// its cited section, no response outside the contract.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAsker, PRICING } from '../../eval/ask/engine.ts';
import { scoreAsk, share } from '../../eval/ask/metrics.ts';
import { DEV_SETS, questionsOf } from '../../eval/ask/sets.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

/** Dev questions by set and id: every kind, every handoff intent, picked at even steps through the dev split. */
const SMOKE = [
  ...['tuning/q019', 'tuning/q055', 'tuning/q092', 'held-out-2/h2-008', 'held-out-3/h3-008', 'held-out-4/h4-011'],
  ...['held-out-5/h5-013', 'held-out-6/h6-010', 'held-out-6/h6-040', 'held-out-7/h7-024', 'held-out-7/h7-084'],
  ...['held-out-8/h8-034', 'held-out-8/h8-096', 'held-out-9/h9-048', 'held-out-10/h10-018', 'held-out-10/h10-073'],
  // follow-ups
  ...['tuning/q200', 'held-out-3/h3-049', 'held-out-6/h6-098', 'held-out-9/h9-050'],
  // two-part
  ...['tuning/q105', 'held-out-3/h3-028', 'held-out-6/h6-058', 'held-out-8/h8-003', 'held-out-10/h10-002'],
  // absent
  ...['tuning/q142', 'held-out-2/h2-041', 'held-out-5/h5-042', 'held-out-7/h7-059', 'held-out-9/h9-065'],
  // handoff
  ...['tuning/q171', 'tuning/q188', 'held-out-2/h2-055', 'held-out-5/h5-051', 'held-out-6/h6-092'],
  ...['held-out-7/h7-097', 'held-out-9/h9-012', 'held-out-10/h10-047'],
  // pricing
  ...['tuning/q121', 'held-out-4/h4-037', 'held-out-7/h7-058', 'held-out-10/h10-001'],
];

const ask = createAsker(join(PROJECT_ROOT, 'build'));
const dev = questionsOf(DEV_SETS);
const smoke = dev.filter((q) => SMOKE.includes(`${q.set}/${q.id}`));

describe('the assistant on the smoke questions', () => {
  it('finds each of them, of every kind and every handoff intent', () => {
    expect(smoke.length).toBe(SMOKE.length);
    expect(new Set(smoke.map((q) => q.kind)).size).toBe(6);
    expect(new Set(smoke.filter((q) => q.kind === 'handoff').map((q) => q.intent)).size).toBe(4);
  });

  it('keeps its floors', () => {
    const s = scoreAsk(smoke, ask, PRICING);
    // When set: answer@1 15/20, answer@3 17/20, two-part 3/5, absent 5/5, handoff 8/8, pricing 4/4, no-answer 1/29,
    // false handoffs 1/34, answered-wrong 6/25.
    expect(share(s.answerAt1)).toBeGreaterThanOrEqual(0.6);
    expect(share(s.answerAt3)).toBeGreaterThanOrEqual(0.75);
    expect(share(s.twoPart)).toBeGreaterThanOrEqual(0.4);
    expect(share(s.absentCorrect)).toBeGreaterThanOrEqual(0.6);
    expect(share(s.handoffCorrect)).toBeGreaterThanOrEqual(0.85);
    expect(share(s.pricingCorrect)).toBeGreaterThanOrEqual(0.75);
    // So that refusing everything, or handing everything off, cannot pass.
    expect(share(s.noAnswer)).toBeLessThanOrEqual(0.15);
    expect(share(s.falseHandoffs)).toBeLessThanOrEqual(0.1);
    expect(share(s.answeredWrong)).toBeLessThanOrEqual(0.4);
  });
});

describe('the assistant on every dev question', () => {
  it('shows no sentence that is not in its cited section, and answers within the contract', () => {
    const s = scoreAsk(dev, ask, PRICING);
    const broken = s.failures.flatMap((f) =>
      f.problems.filter((p) => /^(invented|schema):/.test(p)).map((p) => `${f.q.set}/${f.q.id}: ${p}`),
    );
    expect(broken).toEqual([]);
    expect(s.invented).toBe(0);
    expect(s.schemaFailures).toBe(0);
  });
});
