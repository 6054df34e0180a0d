// The lexicon as data: every entry carries a note, and it compiles to the analyzer's lookups.
import { describe, expect, it } from 'vitest';
import lexicon from '../../../content/data/lexicon.json' with { type: 'json' };
import { compileLexicon } from '../../../src/core/ask/lexicon.ts';
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
});
