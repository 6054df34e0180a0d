/**
 * @module The chat's handoff forms: a demo booking, a contact request, a callback or a message, inside the
 * chat. Each checks itself with the sandbox (POST /api/v1/lead/validate) as the visitor types and submits through
 * the one lead path (POST /api/lead) with an Idempotency-Key made once per form; the conversation goes into the
 * lead's `message` (conversation.ts). The chat is the contract's fallback, so a 502 here shows the phone number
 * and the email address and keeps what was typed.
 */
import { COMPANY } from '../../contract/company.ts';
import { LIMITS } from '../../contract/limits.ts';
import { EMAIL_PATTERN, MOVES, SEGMENTS, WAREHOUSES, withoutInvisible } from '../../contract/lead-values.ts';
import { retryMinutes } from '../../core/rate-limit.ts';
import { type Intent, leadMessage, type Turn } from './conversation.ts';
import { escapeHtml } from './render.ts';
import { uuid } from '../uuid.ts';
import { track } from '../track.ts';

const F = LIMITS.lead_fields;
export const PHONE = COMPANY.phone;
export const EMAIL = COMPANY.salesEmail;
export const HOURS = COMPANY.supportHours;
/** What the handoff button says, per intent. */
export const ACTION: Record<Intent, string> = {
  demo: 'Book a demo',
  contact: 'Contact sales',
  callback: 'Request a callback',
  message: 'Send a message',
};
/** The submit button of each form (not "Send": the chat's question box has that one). */
const SUBMIT: Record<Intent, string> = {
  demo: 'Request my demo',
  contact: 'Send my question',
  callback: 'Ask for the call',
  message: 'Send my message',
};
const ATTACHED = 'Your questions from this chat come with it, so you need not repeat them.';
const DIALCODES = ['+61', '+64', '+65', '+44', '+1', '+852', '+971', '+91', '+63', '+679', '+675', '+27'];
const DEBOUNCE_MS = 450;

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
interface Field {
  name: string;
  label: string;
  kind?: 'email' | 'tel' | 'select' | 'textarea';
  required?: boolean;
  max?: number;
  options?: readonly string[];
  auto?: string;
  hint?: string;
}

/** The fields of each form, in order ('dialcode' and 'phone' share a row). */
function fieldsOf(intent: Intent): Field[] {
  const name: Field = { name: 'name', label: 'Name', required: true, max: F.name, auto: 'name' };
  const work = intent === 'demo' || intent === 'contact';
  const email: Field = {
    name: 'email',
    label: work ? 'Work email' : 'Email',
    kind: 'email',
    required: true,
    max: F.email,
    auto: 'email',
  };
  const dial: Field = { name: 'dialcode', label: 'Dial code', max: 5, auto: 'tel-country-code' };
  const phone: Field = {
    name: 'phone',
    label: 'Phone',
    kind: 'tel',
    max: F.phone,
    auto: 'tel-national',
    required: intent === 'callback',
  };
  const company: Field = { name: 'company', label: 'Company', max: F.company, auto: 'organization' };
  const message = (label: string, required = false): Field => ({
    name: 'message',
    label,
    kind: 'textarea',
    max: F.message,
    required,
  });
  if (intent === 'callback')
    return [
      name,
      email,
      dial,
      phone,
      {
        name: 'when',
        label: 'When should we call?',
        max: 200,
        required: true,
        hint: `e.g. Tuesday after 2pm. ${HOURS}.`,
      },
    ];
  if (intent === 'message') return [name, email, message('Your message', true)];
  const demo: Field[] =
    intent === 'demo'
      ? [
          { name: 'segment', label: 'Kind of moving work', kind: 'select', options: SEGMENTS },
          { name: 'warehouses', label: 'Warehouses', kind: 'select', options: WAREHOUSES },
          { name: 'moves', label: 'Moves per year', kind: 'select', options: MOVES },
        ]
      : [];
  return [
    name,
    email,
    company,
    dial,
    phone,
    ...demo,
    message(intent === 'demo' ? 'Anything we should know before the demo?' : 'Your question'),
  ];
}

let forms = 0;

function fieldHtml(f: Field, id: string): string {
  const req = f.required ? ' <span class="req">(required)</span>' : '';
  const described = f.hint ? ` aria-describedby="${id}-hint"` : '';
  const common = `id="${id}" name="${f.name}"${f.required ? ' required' : ''}${described}`;
  let control: string;
  if (f.kind === 'select') {
    const options = f.options!.map((o) => `<option>${escapeHtml(o)}</option>`).join('');
    control = `<select ${common}><option value="">Choose…</option>${options}</select>`;
  } else if (f.kind === 'textarea') {
    control = `<textarea ${common} rows="3" maxlength="${f.max}"></textarea>`;
  } else {
    const type = f.kind ?? 'text';
    const extra =
      f.name === 'dialcode'
        ? ` value="+61" inputmode="tel" list="${id}-list" pattern="\\+[0-9]{1,4}"`
        : f.kind === 'email'
          ? ' spellcheck="false"'
          : f.kind === 'tel'
            ? ' inputmode="tel"'
            : '';
    const auto = f.auto ? ` autocomplete="${f.auto}"` : '';
    control = `<input ${common} type="${type}" maxlength="${f.max}"${auto}${extra}>`;
    if (f.name === 'dialcode')
      control += `<datalist id="${id}-list">${DIALCODES.map((d) => `<option value="${d}"></option>`).join('')}`;
    control += '</datalist>';
  }
  const hint = f.hint ? `<p class="field-hint" id="${id}-hint">${escapeHtml(f.hint)}</p>` : '';
  const cls = f.name === 'dialcode' ? 'field field--dialcode' : 'field';
  return (
    `<div class="${cls}"><label for="${id}">${escapeHtml(f.label)}${req}</label>${control}${hint}` +
    `<p class="field-error" id="${id}-error" hidden></p></div>`
  );
}

function formHtml(intent: Intent, prefix: string, asked: boolean): string {
  const parts: string[] = [];
  const fields = fieldsOf(intent);
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (f.name === 'dialcode') {
      parts.push(
        `<div class="field-row field-row--phone">${fieldHtml(f, `${prefix}-dialcode`)}` +
          `${fieldHtml(fields[++i]!, `${prefix}-phone`)}</div>`,
      );
    } else parts.push(fieldHtml(f, `${prefix}-${f.name}`));
  }
  const intro = intent === 'callback' ? `We call ${HOURS}.` : 'A person from our team replies within one business day.';
  return (
    `<p class="chat-form-title" id="${prefix}-title">${ACTION[intent]}</p>` +
    `<p class="chat-form-intro">${intro}${asked ? ` ${ATTACHED}` : ''}</p>` +
    `${parts.join('')}<div class="chat-form-actions">` +
    `<button class="btn btn-primary" type="submit">${SUBMIT[intent]}</button>` +
    '<button class="btn btn-secondary" type="button" data-cancel>Cancel</button></div>' +
    `<div class="form-status" id="${prefix}-status" role="status" tabindex="-1"></div>`
  );
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One handoff form's elements and state, shared by the functions below. */
interface Handoff {
  intent: Intent;
  form: HTMLFormElement;
  prefix: string;
  fields: Field[];
  turns: () => readonly Turn[];
  status: HTMLElement;
  submit: HTMLButtonElement;
  /** One per form: a retry after a 429 or 502 is the same submission. */
  key: string;
  touched: Set<string>;
  serverProblems: Map<string, string>;
  checks: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  sending: boolean;
  done: boolean;
  /** Edited since the last sandbox check. */
  dirty: boolean;
}

const control = (h: Handoff, name: string) => h.form.elements.namedItem(name) as Control | null;

// Without the invisible characters the lead path removes anyway (a pasted name's zero-width space): the
// sandbox would report them on a field the visitor sees nothing wrong with.
const value = (h: Handoff, name: string) => withoutInvisible(control(h, name)?.value ?? '').trim();

/** The lead as /api/lead takes it. */
function leadOf(h: Handoff): Record<string, string> {
  const data: Record<string, string> = {};
  for (const name of ['name', 'email', 'company', 'phone', 'segment', 'warehouses', 'moves']) {
    if (value(h, name)) data[name] = value(h, name);
  }
  if (data.phone && value(h, 'dialcode')) data.dialcode = value(h, 'dialcode');
  const own =
    h.intent === 'callback'
      ? value(h, 'when')
        ? `Please call me back. Preferred time: ${value(h, 'when')}`
        : ''
      : value(h, 'message');
  const message = leadMessage(own, h.turns());
  if (message) data.message = message;
  data.intent = h.intent === 'demo' ? 'demo' : 'enquiry';
  return data;
}

/** The browser's own check of one field (required, email, dial code); null when it passes. */
function localProblem(h: Handoff, f: Field): string | null {
  const v = value(h, f.name);
  if (!v) return f.required ? `Enter your ${f.name === 'when' ? 'preferred time' : f.label.toLowerCase()}.` : null;
  if (f.name === 'email' && !EMAIL_PATTERN.test(v)) return 'Enter a valid email address, like sam@yourcompany.com.au.';
  if (f.name === 'dialcode' && !/^\+\d{1,4}$/.test(v))
    return 'Enter a dial code: a plus sign and 1 to 4 digits, like +61.';
  return null;
}

/** The field's message: the browser's own check first, then the sandbox's problem with it. */
const problemOf = (h: Handoff, f: Field) =>
  localProblem(h, f) ?? h.serverProblems.get(f.name === 'when' ? 'message' : f.name) ?? null;

/** Shows each touched field's problem (every field's with `all`); returns the fields that have one. */
function showProblems(h: Handoff, all = false): Field[] {
  const bad: Field[] = [];
  for (const f of h.fields) {
    const c = control(h, f.name);
    const err = h.form.querySelector<HTMLElement>(`#${h.prefix}-${f.name}-error`);
    if (!c || !err) continue;
    const message = all || h.touched.has(f.name) ? problemOf(h, f) : null;
    err.textContent = message ?? '';
    err.hidden = !message;
    const ids = (c.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && id !== err.id);
    if (message) {
      c.setAttribute('aria-invalid', 'true');
      ids.unshift(err.id);
      bad.push(f);
    } else c.removeAttribute('aria-invalid');
    if (ids.length) c.setAttribute('aria-describedby', ids.join(' '));
    else c.removeAttribute('aria-describedby');
  }
  return bad;
}

/** Asks the sandbox about the form as it is now and shows its problems (the latest answer wins). */
async function checkWithSandbox(h: Handoff): Promise<void> {
  const check = ++h.checks;
  h.dirty = false;
  try {
    const res = await fetch('/api/v1/lead/validate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(leadOf(h)),
    });
    if (res.status !== 200 && res.status !== 422) {
      h.serverProblems = new Map(); // over the read budget, say: the browser's check stays, the lead path checks again
      return;
    }
    const body = (await res.json()) as { problems?: { field: string; error: string }[] };
    if (check !== h.checks || h.done) return;
    h.serverProblems = new Map((body.problems ?? []).map((p) => [p.field, `${capital(p.error)}.`]));
    showProblems(h);
  } catch {
    // Offline: the browser's own check still applies, and the submission says what happened.
  }
}

function say(h: Handoff, state: 'info' | 'success' | 'error', html: string, focus = true): void {
  h.status.dataset.state = state;
  h.status.innerHTML = html;
  if (focus) h.status.focus();
}

/** What to do when nothing could be recorded: the phone and the email, with what was typed for the email. */
function fallback(h: Handoff, why: string): void {
  const data = leadOf(h);
  const body = [
    data.message ?? '',
    '',
    `${data.name ?? ''}`,
    data.company ?? '',
    [data.dialcode, data.phone].filter(Boolean).join(' '),
  ]
    .filter((l, i) => i < 2 || l)
    .join('\n')
    .trim();
  const subject = `${ACTION[h.intent]} (from the website chat)`;
  const query = `subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body.slice(0, 1500))}`;
  const mail = `mailto:${EMAIL}?${query}`;
  say(
    h,
    'error',
    `<p>${why} Please call us on ${PHONE} or email ${EMAIL}; what you typed is still in the form.</p>` +
      '<p class="chat-fallback">' +
      `<a class="btn btn-secondary" href="tel:${PHONE.replace(/\s/g, '')}">Call ${PHONE}</a>` +
      `<a class="btn btn-secondary" href="${escapeHtml(mail)}">Email ${EMAIL}</a></p>`,
  );
}

/** Posts the lead once per form key; null when the request never reached the server. */
async function postLead(h: Handoff, data: Record<string, string>): Promise<Response | null> {
  try {
    return await fetch('/api/lead', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': h.key },
      body: JSON.stringify(data),
    });
  } catch {
    return null;
  }
}

/** Replaces the form with its thank-you: who calls or writes, where, and when. */
function showThanks(h: Handoff, data: Record<string, string>): void {
  const first = escapeHtml((data.name ?? '').split(/\s+/)[0] ?? '');
  const next =
    h.intent === 'callback'
      ? `We'll ring you on ${escapeHtml(`${data.dialcode ?? ''} ${data.phone ?? ''}`.trim())} ` +
        `at the time you asked: ${escapeHtml(value(h, 'when'))}.`
      : h.intent === 'demo'
        ? `Your demo request is in: a person from our team will email ${escapeHtml(data.email!)} ` +
          'within one business day to pick a time.'
        : `A person from our team will reply to ${escapeHtml(data.email!)} within one business day.`;
  for (const el of h.form.querySelectorAll('.field, .field-row, .chat-form-actions, .chat-form-intro')) el.remove();
  say(h, 'success', `<p>Thank you, ${first}. ${next} Our hours are ${HOURS}.</p>`);
}

/** Shows the lead path's refusal (400, 429) or, for anything else, the phone-and-email fallback. */
async function showRefusal(h: Handoff, res: Response | null): Promise<void> {
  if (res?.status === 400) {
    const err = (await res.json().catch(() => null)) as { error?: string } | null;
    say(h, 'error', `<p>We could not accept the form: ${escapeHtml(err?.error ?? 'please check your details.')}</p>`);
    return;
  }
  if (res?.status === 429) {
    const minutes = retryMinutes(res.headers.get('Retry-After'));
    const when = minutes ? `in ${minutes} minute${minutes === 1 ? '' : 's'}` : 'later';
    say(
      h,
      'error',
      `<p>Too many enquiries have been sent from this connection. Please try again ${when}, ` +
        `or call us on ${PHONE}. What you typed is still in the form.</p>`,
    );
    return;
  }
  fallback(h, 'Sorry, we could not record your details just now.');
}

/** The submit: the sandbox's last word, every field's problem shown, then the one POST and its answer. */
async function submitHandoff(h: Handoff): Promise<void> {
  if (h.sending || h.done) return;
  clearTimeout(h.timer);
  if (h.dirty) await checkWithSandbox(h); // the sandbox's word on what is in the form now
  for (const f of h.fields) h.touched.add(f.name);
  const bad = showProblems(h, true);
  if (bad.length) {
    const marked = bad.length === 1 ? 'the field marked' : `the ${bad.length} fields marked`;
    say(h, 'error', `<p>Please check ${marked} above.</p>`, false);
    control(h, bad[0]!.name)?.focus();
    return;
  }
  const data = leadOf(h);
  h.sending = true;
  h.submit.disabled = true;
  say(h, 'info', '<p>Sending…</p>', false);
  const res = await postLead(h, data);
  h.sending = false;
  h.submit.disabled = false;
  if (res?.ok) {
    h.done = true;
    track('handoff_submitted', { intent: h.intent });
    showThanks(h, data);
    return;
  }
  await showRefusal(h, res);
}

/** Wires the form's events: show problems as fields are left or edited, a debounced sandbox check, cancel, submit. */
function listen(h: Handoff, onCancel: () => void): void {
  const onEdit = (e: Event) => {
    const name = (e.target as Control).name;
    if (!name) return;
    if (e.type !== 'input' || (e.target as Control).getAttribute('aria-invalid')) h.touched.add(name);
    showProblems(h);
    h.dirty = true;
    clearTimeout(h.timer);
    h.timer = setTimeout(() => checkWithSandbox(h), DEBOUNCE_MS);
  };
  h.form.addEventListener('input', onEdit);
  h.form.addEventListener('change', onEdit);
  h.form.addEventListener('focusout', (e) => {
    const name = (e.target as Control).name;
    if (name && value(h, name)) h.touched.add(name);
    showProblems(h);
  });
  h.form.querySelector('[data-cancel]')!.addEventListener('click', () => {
    clearTimeout(h.timer);
    h.done = true;
    onCancel();
  });
  h.form.addEventListener('submit', (e) => {
    e.preventDefault();
    void submitHandoff(h);
  });
}

/**
 * A handoff form for `intent`, ready to insert. `turns` gives the conversation at the time of sending;
 * `onCancel` runs when the visitor closes the form without sending.
 */
export function handoffForm(intent: Intent, turns: () => readonly Turn[], onCancel: () => void): HTMLFormElement {
  const prefix = `chf${++forms}`;
  const form = document.createElement('form');
  form.className = 'chat-lead lead-form';
  form.noValidate = true;
  form.setAttribute('aria-labelledby', `${prefix}-title`);
  form.innerHTML = formHtml(intent, prefix, turns().length > 0);
  listen(
    {
      intent,
      form,
      prefix,
      fields: fieldsOf(intent),
      turns,
      status: form.querySelector<HTMLElement>('.form-status')!,
      submit: form.querySelector<HTMLButtonElement>('button[type="submit"]')!,
      key: uuid(),
      touched: new Set(),
      serverProblems: new Map(),
      checks: 0,
      timer: undefined,
      sending: false,
      done: false,
      dirty: false,
    },
    onCancel,
  );
  return form;
}
