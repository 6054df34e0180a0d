/**
 * robots.txt reads the same to every parser: Python's urllib.robotparser (first matching rule of the
 * group wins, in file order) and RFC 9309 (the longest matching rule wins, allow on a tie). Both are
 * written out here, small, from their definitions (CPython Lib/urllib/robotparser.py; RFC 9309 2.2.2).
 */
import { describe, expect, it } from 'vitest';
import { robotsTxt } from '../../src/core/site-files.ts';

interface Group {
  agents: string[];
  rules: { allow: boolean; path: string }[];
}

function parseRobots(text: string): Group[] {
  const groups: Group[] = [];
  let current: Group | undefined;
  let lastWasAgent = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const [, key, value] = m as unknown as [string, string, string];
    const k = key.toLowerCase();
    if (k === 'user-agent') {
      if (!lastWasAgent) groups.push((current = { agents: [], rules: [] }));
      current!.agents.push(value.toLowerCase());
      lastWasAgent = true;
    } else {
      if ((k === 'allow' || k === 'disallow') && current) current.rules.push({ allow: k === 'allow', path: value });
      lastWasAgent = false;
    }
  }
  return groups;
}

/** The group for a user agent: one naming its product token, else `*`. */
type AgentMatch = (agent: string, token: string) => boolean;
function groupFor(groups: Group[], userAgent: string, match: AgentMatch): Group | undefined {
  const token = userAgent.split('/')[0]!.toLowerCase();
  const named = groups.find((g) => g.agents.some((a) => a !== '*' && match(a, token)));
  return named ?? groups.find((g) => g.agents.includes('*'));
}

/** CPython's robotparser: the first rule (in order) whose path is a prefix of the URL path decides. */
function pythonAllows(text: string, userAgent: string, path: string): boolean {
  const g = groupFor(parseRobots(text), userAgent, (a, token) => token.includes(a));
  if (!g) return true;
  for (const r of g.rules) {
    if (r.path === '') return true; // an empty Disallow allows everything
    if (path.startsWith(r.path)) return r.allow;
  }
  return true;
}

/** RFC 9309: the matching rule with the most octets decides; `*` and `$` are patterns; allow wins a tie. */
function rfc9309Allows(text: string, userAgent: string, path: string): boolean {
  const g = groupFor(parseRobots(text), userAgent, (a, token) => a === token);
  if (!g) return true;
  let best: { allow: boolean; length: number } | undefined;
  for (const r of g.rules) {
    if (r.path === '') continue;
    const escaped = r.path.replace(/[.+?^{}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
    const pattern = new RegExp(`^${escaped.replace(/\\\$$|\$$/, '$')}`);
    if (!pattern.test(path)) continue;
    const longer = !best || r.path.length > best.length || (r.path.length === best.length && r.allow);
    if (longer) best = { allow: r.allow, length: r.path.length };
  }
  return best?.allow ?? true;
}

const AGENTS = [
  'GPTBot/1.2',
  'ClaudeBot/1.0',
  'PerplexityBot/1.0',
  'Googlebot/2.1',
  'Bingbot/2.0',
  'SomeNewCrawler/0.1',
];
const PATHS = [
  '/',
  '/pricing',
  '/pricing.md',
  '/blog/planning-for-peak-season',
  '/search',
  '/search?q=storage',
  '/search/x',
  '/llms.txt',
  '/sitemap.md',
  '/api/v1/pages',
];

describe('robots.txt', () => {
  const robots = robotsTxt('https://kartage.example');

  it('reads the same under first-match (Python) and longest-match (RFC 9309) parsers, for every agent and path', () => {
    for (const ua of AGENTS)
      for (const path of PATHS) {
        expect(pythonAllows(robots, ua, path), `${ua} ${path}`).toBe(rfc9309Allows(robots, ua, path));
      }
  });

  it('opens the site to every crawler, AI crawlers included, and keeps the search page out', () => {
    for (const ua of AGENTS) {
      for (const path of PATHS.filter((p) => !p.startsWith('/search'))) {
        expect(rfc9309Allows(robots, ua, path), `${ua} ${path}`).toBe(true);
      }
      expect(rfc9309Allows(robots, ua, '/search'), ua).toBe(false);
      expect(rfc9309Allows(robots, ua, '/search?q=x'), ua).toBe(false);
    }
  });

  it('the matchers tell the old file apart: Allow: / before Disallow: /search reads two ways', () => {
    const old = 'User-agent: *\nAllow: /\nDisallow: /search\n';
    expect(pythonAllows(old, 'Googlebot/2.1', '/search')).toBe(true);
    expect(rfc9309Allows(old, 'Googlebot/2.1', '/search')).toBe(false);
  });

  it('names the AI crawlers, states the content signals and points at both sitemaps', () => {
    expect(robots).toMatch(/^User-agent: GPTBot$/m);
    expect(robots).toMatch(/^User-agent: ClaudeBot$/m);
    expect(robots).toContain('Content-Signal: search=yes, ai-input=yes, ai-train=yes');
    expect(robots).toContain('Sitemap: https://kartage.example/sitemap.xml');
    expect(robots).toContain('https://kartage.example/sitemap.md');
  });
});
