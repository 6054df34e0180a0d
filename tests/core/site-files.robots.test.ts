/**
 * robots.txt reads the same to every parser: Python's urllib.robotparser (first matching rule of the
 * group wins, in file order) and RFC 9309 (the longest matching rule wins, allow on a tie). Both are
 * written out here, small, from their definitions (CPython Lib/urllib/robotparser.py; RFC 9309 2.2.2).
 * Named AI crawlers are checked by what the parsers make of the file; then the file line by line.
 */
import { describe, expect, it, vi } from 'vitest';
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

  it('gives each named AI crawler a group of its own, with the rules everyone gets; an unnamed one reads *', async () => {
    // The crawler list is built when the module loads: read the file of a fresh load.
    vi.resetModules();
    const robots = (await import('../../src/core/site-files.ts')).robotsTxt('https://kartage.example');
    const agents = robots.split('\n').filter((l) => l.startsWith('User-agent:'));
    // Each names a product token (RFC 9309 2.2.1), and none twice.
    for (const a of agents) expect(a).toMatch(/^User-agent: (\*|[A-Za-z_-]+)$/);
    expect(new Set(agents).size).toBe(agents.length);
    const groups = parseRobots(robots);
    const everyone = groupFor(groups, 'SomeNewCrawler/0.1', (a, token) => a === token)!;
    expect(everyone.agents).toEqual(['*']);
    const named = ['GPTBot/1.2', 'OAI-SearchBot/1.0', 'ClaudeBot/1.0', 'Claude-User/1.0', 'PerplexityBot/1.0'];
    for (const ua of [...named, 'Google-Extended', 'CCBot/2.0', 'Amazonbot/0.1', 'MistralAI-User/1.0']) {
      const own = groupFor(groups, ua, (a, token) => a === token)!;
      expect(own, ua).not.toBe(everyone);
      expect(own.rules, ua).toEqual(everyone.rules);
      expect(rfc9309Allows(robots, ua, '/pricing'), ua).toBe(true);
      expect(rfc9309Allows(robots, ua, '/search'), ua).toBe(false);
    }
  });
});

const O = 'https://x.test';
const RULES = ['Content-Signal: search=yes, ai-input=yes, ai-train=yes', 'Disallow: /search', 'Allow: /'];

/** The file's groups: the runs of lines between blank lines. */
const groups = (text: string) => text.split('\n\n').map((g) => g.split('\n'));

describe('robots.txt line by line', () => {
  it('starts with three comments: welcome, where the markdown index and llms.txt are, the content signal', () => {
    expect(robotsTxt(O).split('\n').slice(0, 3)).toEqual([
      '# Kartage welcomes search engines and AI crawlers. Markdown versions: append .md to any page URL.',
      `# Every page as a markdown index: ${O}/sitemap.md; site summary for agents: ${O}/llms.txt`,
      '# Content-Signal (https://contentsignals.org): search, AI input and AI training are all welcome.',
    ]);
  });

  it('has two groups each ending with the same three rules, then a blank line', () => {
    const [named, everyone, rest] = groups(robotsTxt(O));
    expect(named!.slice(-3)).toEqual(RULES);
    expect(named!.filter((l) => !l.startsWith('# ') && !l.startsWith('User-agent: '))).toEqual(RULES);
    expect(everyone).toEqual(['User-agent: *', ...RULES]);
    expect(rest).toEqual([`Sitemap: ${O}/sitemap.xml`, '']);
  });

  it('ends with the Sitemap line and one newline', () => {
    const text = robotsTxt(O);
    expect(text.endsWith(`\n\nSitemap: ${O}/sitemap.xml\n`)).toBe(true);
    expect(text.split('\n').at(-2)).toBe(`Sitemap: ${O}/sitemap.xml`);
    expect(text.split('\n').at(-1)).toBe('');
  });
});
