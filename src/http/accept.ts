/** @module Accept header negotiation (RFC 9110 section 12.5.1) between HTML/JSON and markdown. */

interface Range {
  type: string;
  subtype: string;
  q: number;
  specificity: number;
}

/**
 * The last header parsed and its ranges: a request asks about its one Accept header several times (markdown or
 * not, then which of HTML, JSON and markdown ranks first), so each header is parsed once, not once per question.
 */
let last: { header: string; ranges: Range[] } | undefined;
let parses = 0;

/** How many Accept headers have been parsed since start (to check that a request parses its header once). */
export const acceptParses = () => parses;

function parseAccept(header: string): Range[] {
  if (last?.header === header) return last.ranges;
  parses++;
  const out: Range[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.trim().split(';');
    const [type, subtype] = (range ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k?.trim().toLowerCase() === 'q') {
        const n = Number(v);
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
      }
    }
    out.push({ type, subtype, q, specificity: type === '*' ? 0 : subtype === '*' ? 1 : 2 });
  }
  last = { header, ranges: out };
  return out;
}

/** The q-value the Accept header gives `mediaType` (most specific matching range wins); 0 if none. */
export function qualityOf(accept: string, mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  let best: Range | undefined;
  for (const r of parseAccept(accept)) {
    const matches = (r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype);
    if (matches && (!best || r.specificity > best.specificity)) best = r;
  }
  return best?.q ?? 0;
}

/** The q-value an explicit range (`type/subtype` or `type/*`, not `*\/*`) gives `mediaType`; 0 if none. */
function explicitQuality(accept: string, mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  let best: Range | undefined;
  for (const r of parseAccept(accept)) {
    if (r.type !== type || !(r.subtype === '*' || r.subtype === subtype)) continue;
    if (!best || r.specificity > best.specificity) best = r;
  }
  return best?.q ?? 0;
}

/** True when Accept names markdown above HTML and JSON, or at their q and listed first (`*\/*` never does). */
export function wantsMarkdown(accept: string | null): boolean {
  if (!accept) return false;
  // JSON counts only when named: `text/markdown, *\/*` asks for markdown.
  const explicit = parseAccept(accept).some(
    (r) => r.type === 'text' && (r.subtype === 'markdown' || r.subtype === 'x-markdown'),
  );
  if (!explicit) return false;
  const md = Math.max(qualityOf(accept, 'text/markdown'), explicitQuality(accept, 'text/x-markdown'));
  if (md <= 0) return false;
  const first = firstExplicit(accept);
  for (const [, q] of [
    ['text/html', qualityOf(accept, 'text/html')],
    ['application/json', explicitQuality(accept, 'application/json')],
  ] as const) {
    if (q > md || (q === md && first !== 'text/markdown')) return false;
  }
  return true;
}

/** Which of markdown, HTML and JSON is named first, for ties of equal q. */
function firstExplicit(accept: string): string | undefined {
  for (const r of parseAccept(accept)) {
    const t = `${r.type}/${r.subtype}`;
    if (t === 'text/markdown' || t === 'text/x-markdown') return 'text/markdown';
    if (t === 'text/html' || t === 'application/json') return t;
  }
  return undefined;
}

/** User-agent tokens (case-insensitive substrings) of AI agents and crawlers, as their vendors publish them. */
export const AGENT_UA_TOKENS: readonly string[] = [
  'claudebot',
  'claude-user',
  'claude-searchbot',
  'claude-web',
  'anthropic-ai',
  'gptbot',
  'chatgpt-user',
  'oai-searchbot',
  'perplexitybot',
  'perplexity-user',
  'google-cloudvertexbot',
  'gemini-deep-research',
  'meta-externalagent',
  'meta-externalfetcher',
  'amazonbot',
  'applebot-extended',
  'duckassistbot',
  'mistralai-user',
  'cohere-ai',
  'youbot',
  'ccbot',
  'cursor/',
  'github-copilot',
  'devin',
];

/** True when the User-Agent names a known AI agent or AI crawler. */
export function isAgentUserAgent(userAgent: string | null): boolean {
  if (!userAgent) return false;
  const ua = userAgent.toLowerCase();
  return AGENT_UA_TOKENS.some((t) => ua.includes(t));
}

/** Whether a page URL answers markdown: Accept asks for it, or a known agent names neither HTML nor JSON. */
export function negotiateMarkdown(accept: string | null, userAgent: string | null): 'accept' | 'agent' | undefined {
  if (wantsMarkdown(accept)) return 'accept';
  if (!isAgentUserAgent(userAgent)) return undefined;
  // Markdown costs an agent a fraction of the tokens; `*\/*`, what most HTTP libraries send, names neither.
  const named = (type: string) => explicitQuality(accept ?? '', type) > 0;
  if (named('text/html') || named('application/json')) return undefined;
  return 'agent';
}
