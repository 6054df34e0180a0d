/** Front matter of a `pages` entry: its kind (default `page`) and, on a form page only, the form's intent. */
import { describe, expect, it } from 'vitest';
import { PAGE_KINDS, PageFrontmatterSchema } from '../../src/contract/content.ts';

const base = {
  title: 'Book a demo',
  description: 'A 45-minute walkthrough of Kartage with a product specialist, built around your own work.',
  updated: '2026-10-28',
};

describe('page front matter', () => {
  it('defaults the kind to a plain page and takes every kind the site has', () => {
    expect(PageFrontmatterSchema.parse(base).kind).toBe('page');
    for (const kind of PAGE_KINDS.filter((k) => k !== 'form')) {
      expect(PageFrontmatterSchema.parse({ ...base, kind }).kind).toBe(kind);
    }
    expect(PageFrontmatterSchema.safeParse({ ...base, kind: 'post' }).success).toBe(false);
    expect(PageFrontmatterSchema.safeParse({ ...base, kind: 'landing' }).success).toBe(false);
  });

  it('a form page names its form, and no other page does', () => {
    const form = PageFrontmatterSchema.parse({ ...base, kind: 'form', form: 'demo' });
    expect(form).toMatchObject({ kind: 'form', form: 'demo' });
    expect(PageFrontmatterSchema.safeParse({ ...base, kind: 'form' }).success).toBe(false);
    expect(PageFrontmatterSchema.safeParse({ ...base, kind: 'form', form: 'quote' }).success).toBe(false);
    expect(PageFrontmatterSchema.safeParse({ ...base, form: 'enquiry' }).success).toBe(false);
  });
});
