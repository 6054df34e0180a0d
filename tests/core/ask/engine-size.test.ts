// The engine reads in an afternoon: src/core/ask, its stages alone, at most 1,500 lines.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const folder = new URL('../../../src/core/ask/', import.meta.url);

describe('the engine', () => {
  it('is at most 1,500 lines of TypeScript', () => {
    const files = readdirSync(folder).filter((f) => f.endsWith('.ts'));
    const lines = files.map((f) => readFileSync(new URL(f, folder), 'utf8').split('\n').length - 1);
    expect(files.length).toBeGreaterThan(5);
    expect(lines.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1500);
  });
});
