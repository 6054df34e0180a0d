/**
 * @module What typical MCP calls cost an agent's context, in tokens: tools/list, list_kartage_pages with no
 * arguments, search_kartage_site with the default limit and with `limit: 50`, get_kartage_page "pricing",
 * and resources/read of llms.txt. Each answer is the JSON-RPC `result` as the SDK client receives it,
 * serialised as JSON (what a host that hands the whole result to the model pays), counted with
 * `gpt-tokenizer` (o200k_base, the GPT-4o/GPT-5 encoding, ranks bundled in the package) over real HTTP
 * against the local server and the project build (62 pages), and also over the bench corpus when the build
 * section ran. `BEFORE` holds the same calls measured on the code before issue 16 (commit 2cb8cb4).
 *
 * Run alone: `node bench/mcp-tokens.ts [dataDir]` prints the rows as JSON; `npm run bench` with
 * BENCH_ONLY=mcp (or the default set) puts them in bench/results.md.
 */
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer } from '../server/main.ts';
import { createDeps } from '../src/adapters/composition-root.ts';
import { ROOT } from './lib.ts';

export interface McpTokenRow {
  call: string;
  /** Tokens of the whole `result` as JSON. */
  tokens: number;
  /** Tokens of the text blocks alone (what a host that shows only `content` pays); none for tools/list. */
  textTokens?: number;
  bytes: number;
}

export interface McpTokenReport {
  pages: number;
  encoding: string;
  tokenizer: string;
  rows: McpTokenRow[];
  before: { commit: string; pages: number; rows: McpTokenRow[] };
}

/** The calls, named as the report names them. */
export const CALLS = [
  'tools/list',
  'list_kartage_pages {}',
  'search_kartage_site "storage" (default limit)',
  'search_kartage_site "storage" limit 50',
  'get_kartage_page "pricing"',
  'resources/read llms.txt',
] as const;

/** Measured with this script on commit 2cb8cb4 (before issue 16), project build of 62 pages. */
export const BEFORE: McpTokenReport['before'] = {
  commit: '2cb8cb4',
  pages: 62,
  rows: [
    { call: CALLS[0], tokens: 2863, bytes: 10941 },
    { call: CALLS[1], tokens: 7802, textTokens: 1954, bytes: 32518 },
    { call: CALLS[2], tokens: 1684, textTokens: 725, bytes: 7180 },
    { call: CALLS[3], tokens: 8329, textTokens: 3623, bytes: 34661 },
    { call: CALLS[4], tokens: 3639, textTokens: 1669, bytes: 16608 },
    { call: CALLS[5], tokens: 4094, textTokens: 3971, bytes: 17744 },
  ],
};

const textTokens = (result: { content?: unknown }) =>
  countTokens(
    ((result.content as { type: string; text?: string }[] | undefined) ?? [])
      .filter((c) => c.type === 'text')
      .map((c) => c.text)
      .join('\n'),
  );

/** One row per call in CALLS against the server at `url`. */
export async function measure(url: string): Promise<McpTokenRow[]> {
  const client = new Client({ name: 'kartage-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  const origin = new URL((await client.listResources()).resources.find((r) => r.uri.endsWith('/llms.txt'))!.uri).origin;
  const answers: [string, Record<string, unknown>][] = [
    [CALLS[0], await client.listTools()],
    [CALLS[1], await client.callTool({ name: 'list_kartage_pages', arguments: {} })],
    [CALLS[2], await client.callTool({ name: 'search_kartage_site', arguments: { query: 'storage' } })],
    [CALLS[3], await client.callTool({ name: 'search_kartage_site', arguments: { query: 'storage', limit: 50 } })],
    [CALLS[4], await client.callTool({ name: 'get_kartage_page', arguments: { slug: 'pricing' } })],
    [CALLS[5], await client.readResource({ uri: `${origin}/llms.txt` })],
  ];
  await client.close();
  return answers.map(([call, result]) => {
    const json = JSON.stringify(result);
    const contents = (result.contents as { text?: string }[] | undefined)?.map((c) => c.text ?? '').join('\n');
    const texts = call === CALLS[0] ? undefined : contents !== undefined ? countTokens(contents) : textTokens(result);
    return {
      call,
      tokens: countTokens(json),
      ...(texts === undefined ? {} : { textTokens: texts }),
      bytes: Buffer.byteLength(json),
    };
  });
}

/** Starts the local server over `dataDir` (default the project build) and measures every call. */
export async function runMcpTokens(dataDir = join(ROOT, 'build')): Promise<McpTokenReport> {
  const deps = createDeps({ env: process.env, dataDir });
  const server = await startServer({ host: '127.0.0.1', port: 0, root: ROOT, deps, log: () => {} });
  try {
    const rows = await measure(server.url.replace('127.0.0.1', 'localhost'));
    return {
      pages: deps.content.entries().length,
      encoding: 'o200k_base',
      tokenizer: 'gpt-tokenizer',
      rows,
      before: BEFORE,
    };
  } finally {
    await server.close();
  }
}

if (import.meta.main) {
  const report = await runMcpTokens(process.argv[2]);
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exit(0);
}
