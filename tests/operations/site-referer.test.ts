// The page a lead came from reaches the CRM and the sales message only when it is a page of the site
// (`javascript:` URLs and other sites went into HubSpot's pageUri and Slack's "From page").
import { describe, expect, it } from 'vitest';
import { siteReferer } from '../../src/operations/submit-lead.ts';

const SITE = 'https://kartage.com.au';
const at = (referer?: string, host = 'https://kartage.com.au') =>
  siteReferer(new Request(`${host}/api/lead`, { method: 'POST', headers: referer ? { referer } : {} }), SITE);

describe('siteReferer', () => {
  it('keeps an http(s) page of the site, on its configured origin or the host that answered', () => {
    expect(at('https://kartage.com.au/demo')).toBe('https://kartage.com.au/demo');
    expect(at('https://kartage.com.au/contact?from=pricing#form')).toBe(
      'https://kartage.com.au/contact?from=pricing#form',
    );
    expect(at('http://127.0.0.1:4321/demo', 'http://127.0.0.1:4321')).toBe('http://127.0.0.1:4321/demo');
  });

  it('drops anything else: script URLs, other sites, other schemes, garbage, oversize, none', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(document.cookie)',
      'data:text/html,<b>x</b>',
      'https://evil.example/demo',
      'https://kartage.com.au.evil.example/demo',
      'ftp://kartage.com.au/demo',
      'not a url',
      `https://kartage.com.au/${'x'.repeat(500)}`,
      undefined,
    ]) {
      expect(at(bad), String(bad)).toBeUndefined();
    }
  });
});
