/**
 * Content collections: site pages and blog posts from `content/`, validated at build time. A page's slug is
 * its `pages` id, a post's `blog/<id>` (src/contract/slugs.ts `slugOfEntry`); a page's kind is its front matter's.
 *
 * Astro keeps parsed entries in node_modules/.astro/data-store.json and throws them away only when the text
 * of this file changes, not when a schema it imports does: change the revision below with every change to
 * the schemas in src/contract/content.ts. Schema revision: 2 (page `kind` and `form`).
 */
import { defineCollection } from 'astro:content';
import { glob, file } from 'astro/loaders';
import { PageFrontmatterSchema, PostFrontmatterSchema, PricingSchema } from './contract/content.ts';

const pages = defineCollection({
  loader: glob({ pattern: '**/*.{md,mdx}', base: './content/pages', retainBody: false }),
  schema: PageFrontmatterSchema,
});

const blog = defineCollection({
  loader: glob({ pattern: '**/*.{md,mdx}', base: './content/blog', retainBody: false }),
  schema: PostFrontmatterSchema,
});

const pricing = defineCollection({
  loader: file('./content/data/pricing.json', { parser: (text) => ({ pricing: JSON.parse(text) }) }),
  schema: PricingSchema,
});

export const collections = { pages, blog, pricing };
