/** The fenced code blocks of the docs' markdown, as tests/docs reads them (convention: docs/testing.md). */

/** A fenced code block: the line its fence opens on, its info string and its text (the fence's indent removed). */
export interface FencedBlock {
  line: number;
  info: string;
  text: string;
}

/** The fenced code blocks of a markdown text (backtick and tilde fences, indented in a list or not). */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,12})(`{3,}|~{3,})\s*([^`\s]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', fence = '', info = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = new RegExp(`^ {0,${indent.length + 3}}${fence[0]}{${fence.length},}\\s*$`).exec(lines[j]!);
      if (close) break;
      body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!.trimStart());
    }
    blocks.push({ line: i + 1, info, text: body.join('\n') });
    i = j;
  }
  return blocks;
}
