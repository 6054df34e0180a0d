// The lexicon as data (src/core/lexicon.ts): every entry carries a note, and it compiles at build time
// (src/core/ask-indexer/lexicon.ts) into the index's tables, which load (src/core/ask/lexicon.ts) to the analyzer's
// lookups.
import { describe, expect, it } from 'vitest';
import lexicon from '../../../content/data/lexicon.json' with { type: 'json' };
import { loadLexicon } from '../../../src/core/ask/lexicon.ts';
import { compileLexicon, lexiconTables } from '../../../src/core/ask-indexer/lexicon.ts';
import { EMPTY_LEXICON, LexiconSchema } from '../../../src/core/lexicon.ts';

describe('lexicon', () => {
  it('parses, and refuses an entry without its note', () => {
    expect(() => LexiconSchema.parse(lexicon)).not.toThrow();
    const bad = { ...lexicon, chatSpeak: [{ means: 'please', typed: ['pls'] }] };
    expect(() => LexiconSchema.parse(bad)).toThrow();
  });

  it('compiles chat speak, filler, alternatives and synonyms', () => {
    const l = compileLexicon({
      ...EMPTY_LEXICON,
      chatSpeak: [{ means: 'please', typed: ['PLS'], note: 'shorthand' }],
      filler: [{ words: ['hiya'], note: 'greeting' }],
      alternatives: [{ site: ['users'], visitor: ['logins'], note: 'the price list counts users' }],
      synonyms: [{ short: 'SSO', long: ['single sign-on'], note: 'security page' }],
    });
    expect(l.chatSpeak.get('pls')).toBe('please');
    expect(l.filler.has('hiya')).toBe(true);
    expect(l.alternatives.get('login')).toEqual(['user']);
    expect(l.alternatives.get('sso')).toEqual(['singl', 'sign']);
  });

  it('gives a word each alternative once, never itself, and none to a short form of two words', () => {
    const l = compileLexicon({
      ...EMPTY_LEXICON,
      alternatives: [
        { site: ['users', 'accounts'], visitor: ['logins', 'users'], note: 'office users' },
        { site: ['users'], visitor: ['logins'], note: 'the same again' },
      ],
      synonyms: [{ short: 'two factor', long: ['second step'], note: 'two words' }],
    });
    expect(Object.fromEntries(l.alternatives)).toEqual({ login: ['user', 'account'], user: ['account'] });
  });

  it('splits follow-up words by where they count, and folds every word and phrase', () => {
    const l = compileLexicon({
      ...EMPTY_LEXICON,
      followUp: [
        { words: ['It', 'Those'], note: 'pronouns' },
        { words: ['And', 'What about'], start: true, note: 'openings' },
      ],
      questionWords: { words: ['How'], note: 'openings' },
      joiners: { words: ['Plus'], note: 'joiners' },
      alternativeJoiners: { words: ['OR'], note: 'alternatives' },
      asksNumber: { phrases: ['How  Many', 'what’s the number of'], numberWords: ['Dozen'], note: 'numbers' },
      asksPerson: { phrases: ['Who do I  contact'], note: 'requests' },
    });
    expect(l.followUp).toEqual({ anywhere: ['it', 'those'], start: ['and', 'what about'] });
    expect([[...l.questionWords], [...l.numberWords]]).toEqual([['how'], ['dozen']]);
    // A joiner and whether the part it joins is an alternative to the one before.
    expect([...l.joiners]).toEqual([
      ['plus', false],
      ['or', true],
    ]);
    expect(l.asksNumber).toEqual(['how many', 'what s the number of']);
    expect(l.asksPerson).toEqual(['who do i contact']);
  });

  it('compiles into tables that the index file (JSON) keeps whole, loaded to the same lookups', () => {
    const tables = lexiconTables(lexicon);
    const loaded = loadLexicon(JSON.parse(JSON.stringify(tables)));
    const compiled = compileLexicon(lexicon);
    expect(loaded).toEqual(compiled);
    expect(loaded.alternatives.get('subbi')).toContain('subcontractor');
    expect(loaded.chatSpeak.size).toBeGreaterThan(10);
    expect(() => lexiconTables({ ...lexicon, filler: [{ words: ['um'] }] })).toThrow();
  });
});
