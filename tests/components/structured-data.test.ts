/**
 * The JSON-LD of every page, fetched over real HTTP from the local server: one data block per page, each
 * node valid against the schema.org vocabulary (release 30.0, tests/data/), Google's required properties of
 * the rich-result types present, and every value traced back to the content it came from (front matter,
 * content/data/pricing.json, the FAQ's questions, the footer's company details).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, PROJECT_ROOT } from '../helpers/server.ts';
import { send } from '../helpers/http.ts';
import { nodesOfType, schemaProblems, vocabulary } from '../helpers/schemaorg.ts';
import { faqFromHtml, ORGANIZATION, serializeJsonLd } from '../../src/components/structured-data.ts';
import { PricingSchema } from '../../src/contract/content.ts';
import type { RunningServer } from '../../server/main.ts';

type Node = Record<string, any>;
interface Fetched {
  path: string;
  html: string;
  csp: string;
  blocks: string[];
  doc: Node;
}

const LD_BLOCK = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;
const frontMatter = (file: string) => parseYaml(readFileSync(file, 'utf8').split(/^---$/m)[1]!) as Record<string, any>;
const iso = (d: unknown) => (d instanceof Date ? d.toISOString().slice(0, 10) : String(d));

let server: RunningServer;
let origin: string;
const pages = new Map<string, Fetched>();

beforeAll(async () => {
  server = await startTestServer();
  origin = server.deps.content.origin;
  const sitemap = (await send(`${server.url}/sitemap.xml`)).text;
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  for (const path of [...paths, '/search']) {
    const r = await send(server.url + path);
    expect(r.status, path).toBe(200);
    const scripts = [...r.text.matchAll(LD_BLOCK)];
    const blocks = scripts.filter((m) => /type="application\/ld\+json"/.test(m[1]!)).map((m) => m[2]!);
    pages.set(path, {
      path,
      html: r.text,
      csp: r.headers['content-security-policy'] ?? '',
      blocks,
      doc: blocks[0] ? JSON.parse(blocks[0]) : {},
    });
  }
});
afterAll(() => server?.close());

const page = (path: string) => pages.get(path)!;

describe('serializeJsonLd', () => {
  it('writes no character that could end the script element or open a comment, and parses back unchanged', () => {
    const nasty = { '@type': 'Thing', name: '</script><script>alert(1)</script> <!-- & \u2028 >' };
    const text = serializeJsonLd([nasty]);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ '@context': 'https://schema.org', '@graph': [nasty] });
  });
});

describe('the schema.org checker', () => {
  it('finds an unknown type, a property of another type, a wrong value type and a superseded property', () => {
    expect(schemaProblems({ '@type': 'BlogPost' })).toEqual([expect.stringContaining('not a schema.org 30.0 type')]);
    expect(schemaProblems({ '@type': 'Offer', headline: 'x' })).toEqual([
      expect.stringContaining('not a property of Offer'),
    ]);
    expect(schemaProblems({ '@type': 'BlogPosting', author: { '@type': 'Offer', price: 1 } })).toEqual([
      expect.stringContaining('is not one of'),
    ]);
    expect(schemaProblems({ '@type': 'BlogPosting', datePublished: 'yesterday' })).toEqual([
      expect.stringContaining('is not one of'),
    ]);
    expect(schemaProblems({ '@type': 'Organization', members: { '@id': 'x' } })).toEqual([
      expect.stringContaining('superseded by member'),
    ]);
    expect(vocabulary.source).toMatch(/releases\/30\.0\/schemaorg-current-https\.jsonld$/);
  });

  it('reads questions and answers from FAQ markup, skipping headings that ask nothing', () => {
    const html =
      '<h2>Billing</h2><h3>Do prices include GST?</h3><p>No. They <a href="/x">exclude</a> it.</p>' +
      '<ul><li>Card</li><li>Debit</li></ul><h3>Notes</h3><p>Not a question.</p>';
    expect(faqFromHtml(html)).toEqual([
      { question: 'Do prices include GST?', answer: 'No. They exclude it.\n\n- Card\n- Debit' },
    ]);
  });
});

describe('JSON-LD on every page', () => {
  it('every page has exactly one JSON-LD block, valid against the schema.org vocabulary', () => {
    expect(pages.size).toBeGreaterThan(60);
    for (const p of pages.values()) {
      expect(p.blocks, p.path).toHaveLength(1);
      expect(p.doc['@context'], p.path).toBe('https://schema.org');
      expect(schemaProblems(p.doc), p.path).toEqual([]);
    }
  });

  it('the CSP stays script-src self: every inline script is a JSON-LD data block', () => {
    for (const p of pages.values()) {
      expect(p.csp, p.path).toMatch(/script-src 'self'/);
      expect(p.csp, p.path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      for (const [, attrs, body] of p.html.matchAll(LD_BLOCK)) {
        if (/\bsrc=/.test(attrs!)) continue;
        expect(attrs, p.path).toMatch(/type="application\/ld\+json"/);
        expect(body, p.path).not.toMatch(/<\/script|<!--/i);
      }
    }
  });

  it('every page has a BreadcrumbList from Home to the page: positions, names and URLs', () => {
    for (const p of pages.values()) {
      const [list, ...more] = nodesOfType(p.doc, 'BreadcrumbList');
      expect(more, p.path).toEqual([]);
      const items = list!.itemListElement as Node[];
      expect(items.length, p.path).toBeGreaterThanOrEqual(1);
      items.forEach((item, i) => {
        expect(item['@type']).toBe('ListItem');
        expect(item.position).toBe(i + 1);
        expect(typeof item.name === 'string' && item.name.length > 0, p.path).toBe(true);
        expect(item.item).toMatch(new RegExp(`^${origin}/`));
      });
      expect(items[0]).toMatchObject({ name: 'Home', item: `${origin}/` });
      const canonical = p.html.match(/<link rel="canonical" href="([^"]+)"/)![1];
      expect(items.at(-1)!.item, p.path).toBe(canonical);
      // Every step of the trail is a page of the site.
      for (const item of items)
        expect(pages.has(new URL(item.item).pathname) || item.item === `${origin}/`, item.item).toBe(true);
    }
    expect(
      page('/blog/crew-app-offline-mode')
        .doc['@graph'].at(-1)
        .itemListElement.map((i: Node) => i.name),
    ).toEqual(['Home', 'The Kartage blog', 'The crew app now works offline']);
  });

  it("the home page has the Organization (the footer's details) and the WebSite with a SearchAction", () => {
    const home = page('/');
    const [org] = nodesOfType(home.doc, 'Organization').filter((n) => n.legalName);
    expect(org).toMatchObject({ '@id': `${origin}/#organization`, name: 'Kartage', url: `${origin}/` });
    const footer = home.html.slice(home.html.indexOf('<footer'));
    for (const fact of [
      org!.legalName,
      org!.email,
      org!.telephone,
      ORGANIZATION.abn,
      org!.address.streetAddress,
      org!.address.postalCode,
    ]) {
      expect(footer).toContain(fact);
    }
    const [site] = nodesOfType(home.doc, 'WebSite');
    expect(site!.potentialAction).toEqual({
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${origin}/search?q={search_term_string}` },
      'query-input': 'required name=search_term_string',
    });
    // The search page answers the template's URL.
    expect(pages.has('/search')).toBe(true);
    for (const p of pages.values()) if (p.path !== '/') expect(nodesOfType(p.doc, 'WebSite'), p.path).toEqual([]);
  });

  it('pricing has a SoftwareApplication: an Offer per plan of pricing.json, per month, AUD, excl. GST', () => {
    const pricing = PricingSchema.parse(
      JSON.parse(readFileSync(join(PROJECT_ROOT, 'content/data/pricing.json'), 'utf8')),
    );
    const [app, ...more] = nodesOfType(page('/pricing').doc, 'SoftwareApplication');
    expect(more).toEqual([]);
    expect(app!.name).toBe('Kartage');
    expect(app!.offers).toHaveLength(pricing.plans.length);
    pricing.plans.forEach((plan, i) => {
      const offer = app!.offers[i] as Node;
      const spec = offer.priceSpecification as Node;
      expect(offer.name).toBe(`Kartage ${plan.name}`);
      expect(offer.priceCurrency).toBe('AUD');
      expect(spec).toMatchObject({
        '@type': 'UnitPriceSpecification',
        priceCurrency: 'AUD',
        valueAddedTaxIncluded: false,
        unitCode: 'MON',
      });
      expect(spec.referenceQuantity).toEqual({ '@type': 'QuantitativeValue', value: 1, unitCode: 'MON' });
      if (plan.priceFrom) {
        expect(offer.price).toBeUndefined();
        expect(spec.price).toBeUndefined();
        expect(spec.minPrice).toBe(plan.monthly);
        expect(spec.description).toBe('From AUD 3,900 a month, excluding GST; quoted for each business.');
      } else {
        expect(offer.price).toBe(plan.monthly);
        expect(spec.price).toBe(plan.monthly);
      }
    });
    expect(app!.offers.at(-1).name).toBe('Kartage Enterprise');
  });

  it('every post has a BlogPosting with headline, author and dates from its front matter', () => {
    const dir = join(PROJECT_ROOT, 'content/blog');
    const files = readdirSync(dir).filter((f) => f.endsWith('.md'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const fm = frontMatter(join(dir, file));
      const path = `/blog/${file.replace(/\.md$/, '')}`;
      const [post, ...more] = nodesOfType(page(path).doc, 'BlogPosting');
      expect(more, path).toEqual([]);
      expect(post, path).toMatchObject({
        headline: fm.title,
        description: fm.description,
        url: origin + path,
        datePublished: iso(fm.published),
        dateModified: iso(fm.updated ?? fm.published),
        author: { '@type': 'Person', name: String(fm.author).split(',')[0] },
      });
      expect(post!.headline.length).toBeLessThanOrEqual(110);
    }
    for (const p of pages.values())
      if (!p.path.startsWith('/blog/')) expect(nodesOfType(p.doc, 'BlogPosting'), p.path).toEqual([]);
  });

  it('the FAQ page has a FAQPage with every question of content/pages/faq.md and its answer', () => {
    const source = readFileSync(join(PROJECT_ROOT, 'content/pages/faq.md'), 'utf8');
    // The page shows typographic apostrophes (Astro's smartypants), and so does its FAQPage.
    const questions = [...source.matchAll(/^### (.+\?)\s*$/gm)].map((m) => m[1]!.replace(/'/g, '\u2019'));
    const [faq] = nodesOfType(page('/faq').doc, 'FAQPage');
    const entities = faq!.mainEntity as Node[];
    expect(entities.map((q) => q.name)).toEqual(questions);
    for (const q of entities) {
      expect(q['@type']).toBe('Question');
      expect(q.acceptedAnswer['@type']).toBe('Answer');
      expect(q.acceptedAnswer.text.length).toBeGreaterThan(20);
      expect(q.acceptedAnswer.text).not.toMatch(/<|&[a-z#0-9]+;/);
    }
    expect(entities.find((q) => q.name === 'Do prices include GST?')!.acceptedAnswer.text).toBe(
      'No. Prices are in Australian dollars and exclude GST. GST is added to invoices for Australian businesses.',
    );
  });
});
