/** Content collections: site pages and blog posts from `content/`, validated at build time. */
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
