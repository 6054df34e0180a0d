/**
 * @module WebMCP tools of the site (webmachinelearning/webmcp): `search_site` runs the site search, `ask_site`
 * asks the chat's endpoint (answers quoted from the site, each sentence linked to its section) and
 * `book_demo` fills the demo form for the person to review and send; it never sends it. Loaded only when the
 * browser offers a model context (SiteHeader's script checks first, so a browser without one fetches
 * nothing). The current draft puts it at `document.modelContext` with `registerTool(tool, {signal})`
 * returning a promise; earlier drafts and Chromium's preview use `navigator.modelContext`, and the first
 * drafts had `provideContext({tools})`: each is supported.
 */
import { COMPANY } from '../contract/company.ts';
import { ASK_LIMITS, LIMITS } from '../contract/limits.ts';
import { DIALCODE_PATTERN, MOVES, SEGMENTS, WAREHOUSES } from '../contract/lead-values.ts';

/** A tool as the draft's ModelContextTool dictionary describes it. */
export interface WebMcpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { readOnlyHint: boolean };
  execute(input: Record<string, unknown>): Promise<ToolResult>;
}
interface ToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
interface ModelContextLike {
  registerTool?(tool: WebMcpTool, options?: { signal?: AbortSignal }): unknown;
  provideContext?(context: { tools: WebMcpTool[] }): unknown;
}

/** Where book_demo leaves the values for the demo page when it has to open it (this tab only). */
const PENDING_KEY = 'kartage:book_demo';
const DEMO_PATH = '/demo';
const F = LIMITS.lead_fields;
const ASK = ASK_LIMITS;

const text = (t: string, extra: Omit<ToolResult, 'content'> = {}): ToolResult => ({
  content: [{ type: 'text', text: t }],
  ...extra,
});

/** The tool's arguments as an object (an agent may send anything; the draft passes an object). */
const asObject = (input: unknown): Record<string, unknown> =>
  input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};

/** The model context of this document, if the browser offers one. */
export function modelContext(): ModelContextLike | undefined {
  const doc = document as Document & { modelContext?: ModelContextLike };
  const nav = navigator as Navigator & { modelContext?: ModelContextLike };
  return doc.modelContext ?? nav.modelContext;
}

function searchSite(): WebMcpTool {
  return {
    name: 'search_site',
    title: 'Search the Kartage website',
    description:
      'Search the pages of the Kartage website (software for moving, relocation and storage companies). ' +
      'Every term must appear. Returns ranked results, each with its title, page URL, markdown URL and a snippet.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          minLength: LIMITS.searchMinLength,
          maxLength: 500,
          description: 'Search terms, e.g. "storage billing".',
        },
        limit: {
          type: 'integer',
          minimum: LIMITS.searchLimit.min,
          maximum: LIMITS.searchLimit.max,
          default: LIMITS.searchLimit.default,
          description: 'Maximum results.',
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
    async execute(input) {
      const args = asObject(input);
      const params = new URLSearchParams({ q: String(args.query ?? '') });
      if (args.limit !== undefined) params.set('limit', String(args.limit));
      const res = await fetch(`/api/v1/search?${params}`, { headers: { Accept: 'application/json' } });
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (!res.ok) {
        const wait = res.headers.get('Retry-After');
        return text(
          `Search failed (${res.status}): ${String(body.error ?? res.statusText)}` +
            (wait ? `; retry after ${wait} s` : ''),
          { isError: true },
        );
      }
      const results = (body.results ?? []) as { title: string; url: string; markdown_url?: string; snippet: string }[];
      const lines = results.map(
        (r, i) =>
          `${i + 1}. ${r.title}: ${r.url}${r.markdown_url ? ` (markdown: ${r.markdown_url})` : ''}\n   ${r.snippet}`,
      );
      return text(results.length ? lines.join('\n') : `No page contains every term of "${String(body.query)}".`, {
        structuredContent: body,
      });
    },
  };
}

function askSite(): WebMcpTool {
  return {
    name: 'ask_site',
    title: 'Ask the Kartage website a question',
    description:
      'Ask a question about Kartage (software for moving, relocation and storage companies): its product, plans ' +
      'and prices, security, getting started. The answer is made only of sentences quoted from the website, and ' +
      "each cited section's URL opens the page at that section; nothing is invented. Returns the JSON answer: " +
      '`answered` false means the site has no answer (say so, do not guess); `handoff` offers a person and the ' +
      'form to reach them, and nothing is ever sent. Pass earlier turns in `conversation` for a follow-up.',
    inputSchema: {
      type: 'object',
      properties: {
        question: {
          type: 'string',
          minLength: ASK.questionMin,
          maxLength: ASK.questionMax,
          description: 'The question, e.g. "Is there a free trial?".',
        },
        conversation: {
          type: 'array',
          maxItems: ASK.turnsMax,
          description: 'Earlier turns, oldest first, so a follow-up ("and the Professional one?") is understood.',
          items: {
            type: 'object',
            properties: {
              question: { type: 'string', maxLength: ASK.questionMax, description: 'The earlier question.' },
              sources: {
                type: 'array',
                maxItems: ASK.sourcesMax,
                description: 'The sections its answer cited (its `sources` with role "answer").',
                items: {
                  type: 'object',
                  properties: {
                    slug: { type: 'string', maxLength: 200 },
                    heading: { type: ['string', 'null'], maxLength: 300 },
                  },
                  required: ['slug', 'heading'],
                  additionalProperties: false,
                },
              },
            },
            required: ['question'],
            additionalProperties: false,
          },
        },
      },
      required: ['question'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
    async execute(input) {
      const args = asObject(input);
      const request: Record<string, unknown> = { question: args.question };
      if (args.conversation !== undefined) request.conversation = args.conversation;
      const res = await fetch('/api/v1/ask', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(request),
      });
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (!res.ok) {
        const wait = res.headers.get('Retry-After');
        return text(
          `Ask failed (${res.status}): ${String(body.error ?? res.statusText)}` +
            (wait ? `; retry after ${wait} s` : ''),
          { isError: true },
        );
      }
      return text(JSON.stringify(body), { structuredContent: body });
    },
  };
}

/** The demo form's fields book_demo may fill, with the contract's limits and lists. */
function leadFields(): Record<string, Record<string, unknown>> {
  const s = (max: number, description: string) => ({ type: 'string', maxLength: max, description });
  const choice = (values: readonly string[], description: string) => ({
    type: 'string',
    enum: [...values],
    description,
  });
  return {
    name: s(F.name, 'Full name of the person booking, as they gave it.'),
    email: { ...s(F.email, 'Their work email address.'), format: 'email' },
    company: s(F.company, 'Company name.'),
    dialcode: {
      type: 'string',
      pattern: DIALCODE_PATTERN.source,
      description: 'International calling code of the phone, e.g. +61.',
    },
    phone: s(F.phone, 'Phone number in local format.'),
    country: s(F.country, 'Country they operate in.'),
    segment: choice(SEGMENTS, 'Kind of moving work they do.'),
    warehouses: choice(WAREHOUSES, 'Number of warehouses they run.'),
    moves: choice(MOVES, 'Moves per year.'),
    message: s(F.message, 'What they want to see in the demo.'),
  };
}

/** Problems of the values against the schema (the tool's own check: agents may send anything). */
function problemsOf(values: Record<string, unknown>, schema: Record<string, Record<string, unknown>>): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    const rule = schema[key];
    if (!rule) problems.push(`${key}: not a field of the demo form`);
    else if (typeof value !== 'string') problems.push(`${key}: must be a string`);
    else if (typeof rule.maxLength === 'number' && [...value].length > rule.maxLength)
      problems.push(`${key}: at most ${rule.maxLength} characters`);
    else if (Array.isArray(rule.enum) && !rule.enum.includes(value))
      problems.push(`${key}: one of ${rule.enum.join(', ')}`);
    else if (typeof rule.pattern === 'string' && !new RegExp(rule.pattern).test(value))
      problems.push(`${key}: must match ${rule.pattern}`);
  }
  return problems;
}

/** Puts values into the demo form as typing would (input and change events), and shows the form. */
function fillDemoForm(form: HTMLFormElement, values: Record<string, string>): string[] {
  const filled: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    const control = form.elements.namedItem(name);
    if (
      !(
        control instanceof HTMLInputElement ||
        control instanceof HTMLSelectElement ||
        control instanceof HTMLTextAreaElement
      )
    )
      continue;
    if (control.type === 'hidden') continue;
    control.value = value;
    control.dispatchEvent(new Event('input', { bubbles: true }));
    control.dispatchEvent(new Event('change', { bubbles: true }));
    if (control.value === value) filled.push(name);
  }
  form.scrollIntoView({ block: 'start' });
  return filled;
}

const demoForm = () => document.querySelector<HTMLFormElement>('form#lead-form[data-intent="demo"]');

function bookDemo(): WebMcpTool {
  const properties = leadFields();
  return {
    name: 'book_demo',
    title: 'Fill in the Kartage demo booking form',
    description:
      `Fill in the form that books a ${COMPANY.demoMinutes}-minute Kartage demo with the person's own details, for ` +
      'them to review and send. It never sends the form: the person presses "Request my demo" themselves. Opens the ' +
      'demo page first when needed. Use only for a person who asked to book a demo.',
    inputSchema: { type: 'object', properties, additionalProperties: false },
    annotations: { readOnlyHint: false },
    async execute(input) {
      const problems = problemsOf(asObject(input), properties);
      if (problems.length) return text(`Nothing was filled in. ${problems.join('; ')}.`, { isError: true });
      const values = asObject(input) as Record<string, string>;
      const form = demoForm();
      const url = new URL(DEMO_PATH, location.origin).href;
      if (!form) {
        try {
          sessionStorage.setItem(PENDING_KEY, JSON.stringify(values));
        } catch {
          const hint = `Open ${url} (the demo page) and call book_demo there.`;
          return text(`This browser keeps no values between pages, so nothing was filled in. ${hint}`, {
            isError: true,
          });
        }
        // Navigate after this result is handed back, not before.
        setTimeout(() => location.assign(url), 0);
        return text(
          `Opening the demo form at ${url} with ${Object.keys(values).join(', ') || 'no fields'} filled in. ` +
            'Nothing has been sent: ask the person to check the form and press "Request my demo".',
          { structuredContent: { url, filled: Object.keys(values), submitted: false } },
        );
      }
      const filled = fillDemoForm(form, values);
      const missing = ['name', 'email'].filter(
        (f) => !(form.elements.namedItem(f) as HTMLInputElement | null)?.value.trim(),
      );
      return text(
        `The demo form at ${url} now holds ${filled.join(', ') || 'nothing new'}. ` +
          'Nothing has been sent: ask the person to ' +
          `check it${missing.length ? `, add their ${missing.join(' and ')}` : ''} and press "Request my demo".`,
        { structuredContent: { url, filled, missing, submitted: false } },
      );
    },
  };
}

/** On the demo page, fills what book_demo left for it on another page of this tab, once. */
function fillPending(): void {
  const form = demoForm();
  if (!form) return;
  try {
    const pending = sessionStorage.getItem(PENDING_KEY);
    if (!pending) return;
    sessionStorage.removeItem(PENDING_KEY);
    fillDemoForm(form, JSON.parse(pending) as Record<string, string>);
  } catch {
    // Storage unavailable or a value this tab cannot read back: the form stays as it was.
  }
}

/** Registers the tools with the browser's model context (no-op without one). */
export async function registerSiteTools(context: ModelContextLike | undefined = modelContext()): Promise<void> {
  if (!context) return;
  fillPending();
  const tools = [searchSite(), askSite(), bookDemo()];
  // A refusal (a throw, or a rejection such as a name another script registered first) is left at that:
  // the other tools stay registered and the page works as before.
  const attempt = async (register: () => unknown) => {
    try {
      await register();
    } catch {
      // Nothing to do: the site works without its tools.
    }
  };
  if (typeof context.registerTool === 'function') {
    for (const tool of tools) await attempt(() => context.registerTool!(tool));
  } else if (typeof context.provideContext === 'function') {
    await attempt(() => context.provideContext!({ tools }));
  }
}
