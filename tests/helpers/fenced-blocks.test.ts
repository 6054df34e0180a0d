/** The docs' fenced-block reader: fences, indents and info strings as CommonMark writes them. */
import { describe, expect, it } from 'vitest';
import { fencedBlocks } from './fenced-blocks.ts';

describe('fencedBlocks', () => {
  it('reads indented blocks, tilde fences and info strings, and only closes on a matching fence', () => {
    const md = [
      'text',
      '```sh',
      'echo one',
      '```',
      '1. item',
      '',
      '   ```ts',
      '   const a = 1;',
      '   ```',
      '~~~~text',
      '```',
      'inside',
      '~~~~',
    ].join('\n');
    expect(fencedBlocks(md)).toEqual([
      { line: 2, info: 'sh', text: 'echo one' },
      { line: 7, info: 'ts', text: 'const a = 1;' },
      { line: 10, info: 'text', text: '```\ninside' },
    ]);
  });
});
