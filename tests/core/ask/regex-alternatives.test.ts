// The engine's language is data: at most 100 hand-written regex alternatives in src/core/ask.
import { describe, expect, it } from 'vitest';
import { alternativesIn, countFile, countFolder } from '../../../scripts/regex-alternatives.ts';

describe('regex alternatives', () => {
  it('counts `|` outside character classes and escapes, in regex literals and regex sources', () => {
    expect(alternativesIn(String.raw`(a|b|c)[|]\|x`)).toBe(2);
    const source = [
      'const a = /yes|no/;',
      `const b = new RegExp(\`^(\${x})|end\`, 'g');`,
      "const c = '(?:one|two)';",
      "const d = list.join('|');",
      "const e = 'a | b';",
    ].join('\n');
    expect(countFile('x.ts', source)).toBe(4);
  });

  it('the engine has at most 100', () => {
    const total = countFolder('src/core/ask').reduce((a, r) => a + r.count, 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(100);
  });
});
