// The chat on the site's own pages (the build, as `npm run eval:ask` reads it): what the stage tests' small site cannot
// show, each for a behaviour of the engine, not a question's figures (tests/core/ask.smoke.test.ts holds those).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAsker } from '../../eval/ask/engine.ts';
import { PROJECT_ROOT } from '../helpers/server.ts';

const ask = createAsker(join(PROJECT_ROOT, 'build'));
/** The sections an answer quotes, as slug#heading. */
const answers = (question: string) =>
  ask(question)
    .sources.filter((s) => s.role === 'answer')
    .map((s) => `${s.slug}#${s.heading}`);

describe('a part asking the price of what another part names', () => {
  it("is answered by the add-on's row the message is priced with, not asked again on its own", () => {
    // Before: "what do they cost each?" was retrieved alone and answered with the plans' starting prices.
    const r = ask('how do i add more crew phones to our account and what do they cost each?');
    expect(r.answer).toMatch(/\| Extra crew device +\| \$12 /);
    // The row, and the one section the first part is answered from.
    expect(answers(r.question)[0]).toBe('pricing#Add-ons and one-off costs');
    expect(answers(r.question).length).toBe(2);
  });

  it('is asked on its own when the message prices a plan, not an add-on, and quoted by the words it leans on', () => {
    const r = ask('How many crew phones come with Starter, and what do we pay for each one on top of that?');
    expect(r.working?.plan).toBe('Starter');
    expect(answers(r.question).length).toBeGreaterThan(1);
    // "each one" is a crew phone: the add-ons table's crew device row, not its onboarding row.
    expect(r.answer).toMatch(/\| Extra crew device +\| \$12 /);
    expect(r.answer).not.toContain('Onboarding and data migration');
  });
});

describe("onboarding's price", () => {
  it("quotes onboarding's fee from the pricing page's section on it, the other part answered beside it", () => {
    expect(answers('how much is onboarding?')).toEqual(['pricing#Onboarding and data migration']);
    const r = ask('how much is onboarding and how long till we are live?');
    expect(answers(r.question)[0]).toBe('pricing#Onboarding and data migration');
    expect(r.answer).not.toContain('exclude GST');
  });
});
