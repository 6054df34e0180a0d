/**
 * @module The schema.org JSON-LD each page carries in its head, built as plain objects from the content's
 * own data: front matter, content/data/pricing.json and the FAQ's rendered questions. BaseLayout writes the
 * result with `serializeJsonLd`, one `<script type="application/ld+json">` per page (a data block: the
 * CSP's script-src governs scripts, not data blocks, so it needs no hash).
 */
import { unified } from 'unified';
import rehypeParse from 'rehype-parse';
import type { Element, Root, RootContent } from 'hast';
import { COMPANY } from '../contract/company.ts';
import { asksQuestion } from '../core/markdown-plain.ts';
import type { Pricing } from '../contract/content.ts';
import { splitAuthor, type PostSummary } from './blog.ts';
import { ancestorsOf, folderOf, HOME_SLUG, pathOfSlug, urlOfSlug } from '../contract/slugs.ts';

export type JsonLdNode = Record<string, unknown>;
/** One step of a breadcrumb trail: a name and a site path (`/`, `/blog`, `/blog/<post>`). */
export interface Crumb {
  name: string;
  path: string;
}
export interface FaqEntry {
  question: string;
  answer: string;
}

/**
 * The company facts the footer shows (src/components/SiteFooter.astro) and the about page tells; the
 * JSON-LD test checks each one against the footer of the built page, so the two cannot drift apart.
 */
export const ORGANIZATION = {
  name: COMPANY.name,
  legalName: 'Kartage Pty Ltd',
  description:
    'Operating software for moving, relocation and storage companies. Built in Melbourne, hosted in Australia.',
  email: COMPANY.salesEmail,
  telephone: COMPANY.phone,
  abn: '61 614 223 907',
  foundingDate: '2014',
  address: {
    streetAddress: 'Level 3, 88 Smith Street',
    addressLocality: 'Collingwood',
    addressRegion: 'VIC',
    postalCode: '3066',
    addressCountry: 'AU',
  },
} as const;

const orgId = (origin: string) => `${origin}/#organization`;
const siteId = (origin: string) => `${origin}/#website`;
const pageUrl = (origin: string, path: string) => origin + path;

/** The home page's Organization: who publishes the site, with the contact details of the footer. */
export function organization(origin: string): JsonLdNode {
  const o = ORGANIZATION;
  return {
    '@type': 'Organization',
    '@id': orgId(origin),
    name: o.name,
    legalName: o.legalName,
    description: o.description,
    url: `${origin}/`,
    logo: `${origin}/favicon.svg`,
    email: o.email,
    telephone: o.telephone,
    taxID: `ABN ${o.abn}`,
    foundingDate: o.foundingDate,
    address: { '@type': 'PostalAddress', ...o.address },
    contactPoint: {
      '@type': 'ContactPoint',
      contactType: 'sales',
      email: o.email,
      telephone: o.telephone,
      areaServed: ['AU', 'NZ'],
    },
  };
}

/** A reference to the Organization, complete enough to stand on its own on pages without the full node. */
const publisher = (origin: string): JsonLdNode => ({
  '@type': 'Organization',
  '@id': orgId(origin),
  name: ORGANIZATION.name,
  url: `${origin}/`,
});

/** The home page's WebSite, with the site search as a SearchAction (the /search page reads `q`). */
export function webSite(origin: string, description: string): JsonLdNode {
  return {
    '@type': 'WebSite',
    '@id': siteId(origin),
    name: COMPANY.name,
    url: `${origin}/`,
    description,
    inLanguage: 'en-AU',
    publisher: { '@id': orgId(origin) },
    potentialAction: {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${origin}/search?q={search_term_string}` },
      // schema.org Potential Actions annotation (schema.org/docs/actions.html): `<property>-input`.
      'query-input': 'required name=search_term_string',
    },
  };
}

/** UN/CEFACT common codes of the billing periods pricing.json can name. */
const PERIOD_CODE: Record<Pricing['period'], string> = { month: 'MON' };

/**
 * The pricing page's (`slug`'s) SoftwareApplication: one Offer per plan, each priced per month in AUD excluding GST
 * with a UnitPriceSpecification; a plan priced "from" (Enterprise, quoted) has a minPrice and no price.
 */
export function softwareApplication(origin: string, slug: string, pricing: Pricing, description: string): JsonLdNode {
  const url = urlOfSlug(origin, slug);
  const unitCode = PERIOD_CODE[pricing.period];
  const vat = pricing.gst !== 'excluded';
  const offers = pricing.plans.map((plan) => {
    const amount = plan.priceFrom ? { minPrice: plan.monthly } : { price: plan.monthly };
    const amountText = `${pricing.currency} ${plan.monthly.toLocaleString('en-AU')} a ${pricing.period}`;
    const terms = `${amountText}, ${vat ? 'including' : 'excluding'} GST`;
    return {
      '@type': 'Offer',
      '@id': `${url}#plan-${plan.id}`,
      name: `${COMPANY.name} ${plan.name}`,
      description: `${plan.includes.join(', ')}.`,
      url,
      priceCurrency: pricing.currency,
      ...(plan.priceFrom ? {} : { price: plan.monthly }),
      priceSpecification: {
        '@type': 'UnitPriceSpecification',
        priceCurrency: pricing.currency,
        ...amount,
        unitCode,
        unitText: pricing.period,
        referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode },
        valueAddedTaxIncluded: vat,
        description: plan.priceFrom ? `From ${terms}${plan.quoted ? '; quoted for each business' : ''}.` : `${terms}.`,
      },
      seller: { '@id': orgId(origin) },
    };
  });
  return {
    '@type': 'SoftwareApplication',
    '@id': `${url}#software`,
    name: COMPANY.name,
    description,
    url,
    applicationCategory: 'BusinessApplication',
    operatingSystem: 'Web, iOS, Android',
    publisher: publisher(origin),
    offers,
  };
}

/** A blog post's BlogPosting: headline, author (a Person), publication and modification dates. */
export function blogPosting(origin: string, post: PostSummary): JsonLdNode {
  const url = urlOfSlug(origin, post.slug);
  const { name, role } = splitAuthor(post.author);
  return {
    '@type': 'BlogPosting',
    '@id': `${url}#post`,
    headline: post.title,
    description: post.description,
    url,
    mainEntityOfPage: url,
    datePublished: post.published,
    dateModified: post.updated ?? post.published,
    author: {
      '@type': 'Person',
      name,
      ...(role ? { jobTitle: role } : {}),
      worksFor: { '@id': orgId(origin) },
    },
    publisher: publisher(origin),
    keywords: post.tags.join(', '),
    inLanguage: 'en-AU',
    isPartOf: {
      '@type': 'Blog',
      '@id': urlOfSlug(origin, folderOf(post.slug)),
      url: urlOfSlug(origin, folderOf(post.slug)),
      name: `${COMPANY.name} blog`,
    },
  };
}

/** The FAQ page's FAQPage: every question of the page with its answer as plain text. */
export function faqPage(origin: string, path: string, name: string, entries: FaqEntry[]): JsonLdNode {
  return {
    '@type': 'FAQPage',
    '@id': pageUrl(origin, path),
    url: pageUrl(origin, path),
    name,
    mainEntity: entries.map((e) => ({
      '@type': 'Question',
      name: e.question,
      acceptedAnswer: { '@type': 'Answer', text: e.answer },
    })),
  };
}

const textOf = (n: RootContent | Root): string =>
  n.type === 'text' ? n.value : 'children' in n ? n.children.map((c) => textOf(c as RootContent)).join('') : '';

/**
 * Questions and answers of a rendered FAQ body: each H3 that ends with a question mark is a question, and
 * the blocks after it up to the next heading are its answer (paragraphs joined by a blank line).
 */
export function faqFromHtml(html: string): FaqEntry[] {
  const tree = unified().use(rehypeParse, { fragment: true }).parse(html);
  const entries: FaqEntry[] = [];
  let current: { question: string; parts: string[] } | undefined;
  const flush = () => {
    if (current?.parts.length) entries.push({ question: current.question, answer: current.parts.join('\n\n') });
    current = undefined;
  };
  for (const node of tree.children) {
    if (node.type !== 'element') continue;
    const el = node as Element;
    const text = textOf(el).replace(/\s+/g, ' ').trim();
    if (/^h[1-6]$/.test(el.tagName)) {
      flush();
      if (el.tagName === 'h3' && asksQuestion(text)) current = { question: text, parts: [] };
    } else if (current && text) {
      current.parts.push(
        el.tagName === 'ul' || el.tagName === 'ol'
          ? el.children
              .filter((c) => c.type === 'element')
              .map((li) => `- ${textOf(li).replace(/\s+/g, ' ').trim()}`)
              .join('\n')
          : text,
      );
    }
  }
  flush();
  return entries;
}

/** BreadcrumbList of a trail; each item has its position, name and URL (the last one is the page itself). */
export function breadcrumbList(origin: string, crumbs: readonly Crumb[]): JsonLdNode {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.name,
      item: pageUrl(origin, c.path),
    })),
  };
}

/**
 * The trail of a content page: Home, then each ancestor that is itself a page (`/customers` for a
 * customer story, `/blog` for a post; `/product` is no page, so product pages go straight to Home), then
 * the page. `titleOf` answers a slug's title, or undefined when there is no such page.
 */
export function crumbsFor(slug: string, titleOf: (slug: string) => string | undefined): Crumb[] {
  const home: Crumb = { name: 'Home', path: pathOfSlug(HOME_SLUG) };
  if (slug === HOME_SLUG) return [home];
  const trail = [home];
  for (const ancestor of ancestorsOf(slug)) {
    const title = titleOf(ancestor);
    if (title) trail.push({ name: title, path: pathOfSlug(ancestor) });
  }
  trail.push({ name: titleOf(slug) ?? slug, path: pathOfSlug(slug) });
  return trail;
}

/**
 * The text of the page's one JSON-LD data block: `@context` and a `@graph` of the page's nodes. `<`, `>`
 * and `&` are written as JSON escapes, so no value can close the script element (`</script>`) or open a
 * comment (`<!--`) and the parsed JSON is unchanged; U+2028/U+2029 are escaped for old JavaScript parsers.
 */
export function serializeJsonLd(nodes: readonly JsonLdNode[]): string {
  return JSON.stringify({ '@context': 'https://schema.org', '@graph': nodes })
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
