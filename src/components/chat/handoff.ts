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
  const fields = fieldsOf(intent);
  const control = (name: string) => form.elements.namedItem(name) as Control | null;
  // Without the invisible characters the lead path removes anyway (a pasted name's zero-width space): the
  // sandbox would report them on a field the visitor sees nothing wrong with.
  const value = (name: string) => withoutInvisible(control(name)?.value ?? '').trim();
  const status = form.querySelector<HTMLElement>('.form-status')!;
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const key = uuid(); // one per form: a retry after a 429 or 502 is the same submission
  const touched = new Set<string>();
  let serverProblems = new Map<string, string>();
  let checks = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sending = false;
  let done = false;
  /** Edited since the last sandbox check. */
  let dirty = false;

  /** The lead as /api/lead takes it. */
  function lead(): Record<string, string> {
    const data: Record<string, string> = {};
    for (const name of ['name', 'email', 'company', 'phone', 'segment', 'warehouses', 'moves']) {
      if (value(name)) data[name] = value(name);
    }
    if (data.phone && value('dialcode')) data.dialcode = value('dialcode');
    const own =
      intent === 'callback'
        ? value('when')
          ? `Please call me back. Preferred time: ${value('when')}`
          : ''
        : value('message');
    const message = leadMessage(own, turns());
    if (message) data.message = message;
    data.intent = intent === 'demo' ? 'demo' : 'enquiry';
    return data;
  }

  /** The browser's own check of one field (required, email, dial code); null when it passes. */
  function localProblem(f: Field): string | null {
    const v = value(f.name);
    if (!v) return f.required ? `Enter your ${f.name === 'when' ? 'preferred time' : f.label.toLowerCase()}.` : null;
    if (f.name === 'email' && !EMAIL_PATTERN.test(v))
      return 'Enter a valid email address, like sam@yourcompany.com.au.';
    if (f.name === 'dialcode' && !/^\+\d{1,4}$/.test(v))
      return 'Enter a dial code: a plus sign and 1 to 4 digits, like +61.';
    return null;
  }

  /** The field's message: the browser's own check first, then the sandbox's problem with it. */
  const problemOf = (f: Field) => localProblem(f) ?? serverProblems.get(f.name === 'when' ? 'message' : f.name) ?? null;

  function show(all = false): Field[] {
    const bad: Field[] = [];
    for (const f of fields) {
      const c = control(f.name);
      const err = form.querySelector<HTMLElement>(`#${prefix}-${f.name}-error`);
      if (!c || !err) continue;
      const message = all || touched.has(f.name) ? problemOf(f) : null;
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

  async function validate(): Promise<void> {
    const check = ++checks;
    dirty = false;
    try {
      const res = await fetch('/api/v1/lead/validate', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(lead()),
      });
      if (res.status !== 200 && res.status !== 422) {
        serverProblems = new Map(); // over the read budget, say: the browser's check stays, the lead path checks again
        return;
      }
      const body = (await res.json()) as { problems?: { field: string; error: string }[] };
      if (check !== checks || done) return;
      serverProblems = new Map((body.problems ?? []).map((p) => [p.field, `${capital(p.error)}.`]));
      show();
    } catch {
      // Offline: the browser's own check still applies, and the submission says what happened.
    }
  }

  const onEdit = (e: Event) => {
    const name = (e.target as Control).name;
    if (!name) return;
    if (e.type !== 'input' || (e.target as Control).getAttribute('aria-invalid')) touched.add(name);
    show();
    dirty = true;
    clearTimeout(timer);
    timer = setTimeout(validate, DEBOUNCE_MS);
  };
  form.addEventListener('input', onEdit);
  form.addEventListener('change', onEdit);
  form.addEventListener('focusout', (e) => {
    const name = (e.target as Control).name;
    if (name && value(name)) touched.add(name);
    show();
  });
  form.querySelector('[data-cancel]')!.addEventListener('click', () => {
    clearTimeout(timer);
    done = true;
    onCancel();
  });

  function say(state: 'info' | 'success' | 'error', html: string, focus = true): void {
    status.dataset.state = state;
    status.innerHTML = html;
    if (focus) status.focus();
  }

  /** What to do when nothing could be recorded: the phone and the email, with what was typed for the email. */
  function fallback(why: string): void {
    const data = lead();
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
    const subject = `${ACTION[intent]} (from the website chat)`;
    const query = `subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body.slice(0, 1500))}`;
    const mail = `mailto:${EMAIL}?${query}`;
    say(
      'error',
      `<p>${why} Please call us on ${PHONE} or email ${EMAIL}; what you typed is still in the form.</p>` +
        '<p class="chat-fallback">' +
        `<a class="btn btn-secondary" href="tel:${PHONE.replace(/\s/g, '')}">Call ${PHONE}</a>` +
        `<a class="btn btn-secondary" href="${escapeHtml(mail)}">Email ${EMAIL}</a></p>`,
    );
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (sending || done) return;
    clearTimeout(timer);
    if (dirty) await validate(); // the sandbox's word on what is in the form now
    for (const f of fields) touched.add(f.name);
    const bad = show(true);
    if (bad.length) {
      say(
        'error',
        `<p>Please check ${bad.length === 1 ? 'the field marked' : `the ${bad.length} fields marked`} above.</p>`,
        false,
      );
      control(bad[0]!.name)?.focus();
      return;
    }
    const data = lead();
    sending = true;
    submit.disabled = true;
    say('info', '<p>Sending…</p>', false);
    let res: Response | null = null;
    try {
      res = await fetch('/api/lead', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify(data),
      });
    } catch {
      res = null;
    }
    sending = false;
    submit.disabled = false;
    if (res?.ok) {
      done = true;
      track('handoff_submitted', { intent });
      const first = escapeHtml((data.name ?? '').split(/\s+/)[0] ?? '');
      const next =
        intent === 'callback'
          ? `We'll ring you on ${escapeHtml(`${data.dialcode ?? ''} ${data.phone ?? ''}`.trim())} ` +
            `at the time you asked: ${escapeHtml(value('when'))}.`
          : intent === 'demo'
            ? `Your demo request is in: a person from our team will email ${escapeHtml(data.email!)} ` +
              'within one business day to pick a time.'
            : `A person from our team will reply to ${escapeHtml(data.email!)} within one business day.`;
      for (const el of form.querySelectorAll('.field, .field-row, .chat-form-actions, .chat-form-intro')) el.remove();
      say('success', `<p>Thank you, ${first}. ${next} Our hours are ${HOURS}.</p>`);
      return;
    }
    if (res?.status === 400) {
      const err = (await res.json().catch(() => null)) as { error?: string } | null;
      say('error', `<p>We could not accept the form: ${escapeHtml(err?.error ?? 'please check your details.')}</p>`);
      return;
    }
    if (res?.status === 429) {
      const minutes = retryMinutes(res.headers.get('Retry-After'));
      const when = minutes ? `in ${minutes} minute${minutes === 1 ? '' : 's'}` : 'later';
      say(
        'error',
        `<p>Too many enquiries have been sent from this connection. Please try again ${when}, ` +
          `or call us on ${PHONE}. What you typed is still in the form.</p>`,
      );
      return;
    }
    fallback('Sorry, we could not record your details just now.');
  });
  return form;
}
