/**
 * @module The lead form without JavaScript: a browser posts `application/x-www-form-urlencoded` to
 * /api/lead and shows whatever comes back. This module reads that body (bounded, with `readBytes`), turns
 * it into the lead object `submitLead` takes, and renders an answer as a small standalone HTML page with
 * the same status (200 thank-you, 400 what to fix, 413 too long, 429 when to retry, 502 where else to go);
 * the operation's responder (src/operations/submit-lead.ts) says which. Everything the visitor typed is
 * escaped. Web-standard only.
 */
import { COMPANY } from '../contract/company.ts';
import { FIELD_LABELS } from '../contract/lead-values.ts';
import { SECURITY_HEADERS } from '../contract/routes.ts';
import { type BodyFailure, readBytes } from './request-body.ts';
import type { LeadProblem } from '../core/lead-validation.ts';
import { qualityOf } from './accept.ts';
import { retryMinutes } from '../core/rate-limit.ts';

/** Where to reach sales when the form cannot take the lead. */
const SALES_EMAIL = COMPANY.salesEmail;
const SALES_PHONE = COMPANY.phone;

/** True when the request carries an HTML form post (the lead form with JavaScript off). */
export function isFormPost(request: Request): boolean {
  const type = request.headers.get('content-type') ?? '';
  return type.split(';', 1)[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** A form body read: the lead object, a JSON body under a form type, or why it was not read. */
export type ReadFormResult =
  | { kind: 'form'; lead: Record<string, string> }
  /** The body is JSON under a form Content-Type (`curl -d '{...}'` sends one): the same body as a Request. */
  | { kind: 'json'; request: Request }
  | { kind: 'failed'; failure: BodyFailure };

/** Reads a form body of at most `maxBytes` bytes into the lead object (`formToLead`). */
export async function readForm(request: Request, maxBytes: number): Promise<ReadFormResult> {
  const read = await readBytes(request, maxBytes);
  if (!read.ok) return { kind: 'failed', failure: read.failure };
  const text = new TextDecoder('utf-8', { fatal: false }).decode(read.bytes);
  // A browser percent-encodes `{` in a form body: one starting with `{` is JSON with a wrong Content-Type.
  if (text.trimStart().startsWith('{')) {
    return {
      kind: 'json',
      request: new Request(request.url, { method: request.method, headers: request.headers, body: read.bytes }),
    };
  }
  return { kind: 'form', lead: formToLead(new URLSearchParams(text)) };
}

/** The lead object from form fields: each field's first non-empty value, line breaks as LF. */
export function formToLead(params: URLSearchParams): Record<string, string> {
  const lead: Record<string, string> = {};
  // Empty fields are left out and CRLF becomes LF, as in the JSON the form's script sends.
  for (const [name, value] of params) {
    if (value !== '' && !(name in lead)) lead[name] = value.replace(/\r\n?/g, '\n');
  }
  return lead;
}

/** True when Accept names `text/html` (or `text/*`) at a q above 0 and at least JSON's: a browser, not curl. */
export function wantsHtml(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  if (!/\btext\/(html|\*)/i.test(accept)) return false;
  const html = qualityOf(accept, 'text/html');
  return html > 0 && html >= qualityOf(accept, 'application/json');
}

/** Content types whose body counts as JSON (`application/json`, `application/problem+json`…). */
const isJsonType = (type: string) => /^application\/([\w.-]+\+)?json$/.test(type);

/** The 400 text for a post another website's page made a browser send, or undefined for any other post. */
export function crossSiteRefusal(request: Request, siteOrigin: string, anyType = false): string | undefined {
  // Foreign: an Origin neither the site's nor this host's (`null` too), or `Sec-Fetch-Site: cross-site`. Refused
  // when its body is one a browser sends anywhere unasked (anything but JSON), or any body with `anyType` (the
  // lead endpoint allows no other origin). No Origin (agents, curl) goes through; so does JSON to the sandbox.
  const type = (request.headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (isJsonType(type) && !anyType) return undefined;
  const origin = request.headers.get('origin');
  const foreign = origin !== null && origin !== siteOrigin && origin !== new URL(request.url).origin;
  if (!foreign && request.headers.get('sec-fetch-site')?.toLowerCase() !== 'cross-site') return undefined;
  if (isJsonType(type)) {
    return (
      `Cross-site posts are not accepted: another website cannot send leads from its visitors' browsers. ` +
      `Use the form at ${siteOrigin}/contact, or send the lead from a server or an agent (no Origin header)`
    );
  }
  return (
    `Cross-site ${type || 'untyped'} posts are not accepted: ` +
    `send the lead as application/json, or use the form at ${siteOrigin}/contact`
  );
}

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The form page the lead came from: /demo for a demo request, else /contact. */
const formPath = (lead: Record<string, string> | undefined) => (lead?.intent?.trim() === 'demo' ? '/demo' : '/contact');

const backToForm = (lead: Record<string, string> | undefined) =>
  `<p><a href="${formPath(lead)}">Go back to the form</a> (your browser's Back button keeps what you typed).</p>`;

const elsewhere =
  `<p>You can also email <a href="mailto:${SALES_EMAIL}">${SALES_EMAIL}</a> or call <a href="tel:${SALES_PHONE.replace(/\s/g, '')}">${SALES_PHONE}</a> ` +
  `(${COMPANY.supportHours}).</p>`;

/** What the page for a form post says: one case per answer the form can get (the responder picks it). */
export type FormPage =
  | { kind: 'accepted' }
  | { kind: 'rejected'; problems: readonly LeadProblem[]; message: string }
  | { kind: 'too-large'; maxBytes: number }
  | { kind: 'unreadable' }
  | { kind: 'limited'; retryAfter: number }
  | { kind: 'unrecorded' }
  | { kind: 'other'; status: number; message: string };

/** A page's status, title and paragraphs. */
type PageContent = [status: number, title: string, body: string[]];
type Lead = Record<string, string> | undefined;

/** Each answer's page, by its kind; `lead` is what the visitor sent. */
const PAGES: { [K in FormPage['kind']]: (p: Extract<FormPage, { kind: K }>, lead: Lead) => PageContent } = {
  accepted: (_, lead) => {
    const demo = lead?.intent?.trim() === 'demo';
    const first = (lead?.name ?? '').trim().split(/\s+/)[0] ?? '';
    return [
      200,
      demo ? 'Thank you: your demo request is in' : 'Thank you: we have your enquiry',
      [
        `<p>${first ? `Thanks, ${escapeHtml(first)}. ` : ''}${
          demo
            ? `We will email you within one business day to pick a time for your ${COMPANY.demoMinutes}-minute walkthrough.`
            : 'A real person in our Melbourne or Brisbane office will reply within one business day.'
        }</p>`,
        '<p><a href="/">Back to the Kartage website</a> · <a href="/pricing">See pricing</a> · <a href="/blog">Read the blog</a></p>',
      ],
    ];
  },
  rejected: (p, lead) => {
    const problems = p.problems.filter((problem) => problem.outcome === 'reject');
    const items = problems.length
      ? problems.map(
          (problem) =>
            `<li><strong>${escapeHtml(FIELD_LABELS[problem.field] ?? problem.field)}:</strong> ${escapeHtml(problem.error)}</li>`,
        )
      : [`<li>${escapeHtml(p.message)}</li>`];
    return [
      400,
      'Please check your details',
      [
        `<p>We could not send the form. Please fix ${problems.length > 1 ? 'these problems' : 'this problem'} and send it again:</p>`,
        `<ul>${items.join('')}</ul>`,
        backToForm(lead),
      ],
    ];
  },
  'too-large': (p, lead) => [
    413,
    'Your message is too long',
    [
      `<p>The form was larger than ${Math.floor(p.maxBytes / 1024)} KB, so we could not read it. ` +
        'Please shorten your message and send it again.</p>',
      backToForm(lead),
    ],
  ],
  unreadable: (_, lead) => [
    400,
    'We could not read the form',
    ['<p>The form did not arrive whole. Please send it again.</p>', backToForm(lead)],
  ],
  limited: (p) => {
    const minutes = retryMinutes(p.retryAfter);
    return [
      429,
      'Please try again later',
      [
        `<p>Too many enquiries have been sent from this connection. ${
          minutes ? `Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` : 'Please try again later.'
        }</p>`,
        elsewhere,
        '<p><a href="/">Back to the Kartage website</a></p>',
      ],
    ];
  },
  unrecorded: (_, lead) => [
    502,
    'We could not record your details',
    [
      '<p>Sorry: your details could not be recorded just now, and nothing was saved. ' +
        'Please use the chat on our website, or contact our sales team directly:</p>',
      elsewhere,
      backToForm(lead),
    ],
  ],
  other: (p, lead) => [
    p.status,
    'Something went wrong',
    [`<p>${escapeHtml(p.message)}</p>`, elsewhere, backToForm(lead)],
  ],
};

/** The HTML page answering a form post, with its status and own `headers`; `lead` is what the visitor sent. */
export function leadAnswerPage(p: FormPage, lead: Lead, headers: Record<string, string> = {}): Response {
  const [status, title, body] = (PAGES[p.kind] as (p: FormPage, lead: Lead) => PageContent)(p, lead);
  return page(status, title, body, headers);
}

/** A small standalone page: no script, one inline style block (the CSP allows inline styles only). */
function page(status: number, title: string, body: string[], extra: Record<string, string> = {}): Response {
  const kind = status === 200 ? 'ok' : 'problem';
  const html = `<!doctype html>
<html lang="en-AU">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} | Kartage</title>
<style>
body{margin:0;font:1.0625rem/1.65 system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#142033;background:#f5f7fa}
header{background:#0b1b33;padding:1rem 1.25rem}
header a{color:#fff;font-weight:700;font-size:1.25rem;text-decoration:none}
main{box-sizing:border-box;width:min(40rem,calc(100% - 2rem));margin:2rem auto;padding:1.5rem 1.25rem;background:#fff;border:1px solid #dde3ec;border-radius:16px}
h1{color:#0b1b33;line-height:1.2;font-size:1.75rem;margin:0 0 1rem;padding-left:.75rem;border-left:5px solid ${kind === 'ok' ? '#15703d' : '#b42318'}}
a{color:#1b55b3}a:hover{color:#123f87}
:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
li{margin:.35rem 0}
</style>
</head>
<body>
<header><a href="/">Kartage</a></header>
<main>
<h1>${escapeHtml(title)}</h1>
${body.join('\n')}
</main>
</body>
</html>
`;
  return new Response(html, {
    status,
    headers: {
      ...extra,
      ...SECURITY_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
