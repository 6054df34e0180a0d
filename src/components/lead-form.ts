/**
 * Client behaviour of the lead form: the contract's checks, accessible errors, and the POST to /api/lead.
 * Limits are read from the form's own attributes (maxlength, pattern, required), which the server-side
 * component sets from the contract, so the two cannot drift apart.
 */

/** The form's fields, in order (their names are what an analytics event may name, never their values). */
export const FIELDS = [
  'name',
  'email',
  'company',
  'dialcode',
  'phone',
  'country',
  'segment',
  'warehouses',
  'moves',
  'message',
] as const;
import { COMPANY } from '../contract/company.ts';
// The API's own rules (src/contract/lead-values.ts has no zod, so the page's script stays small).
import { CONTROL_PATTERN as CONTROL, EMAIL_PATTERN as EMAIL } from '../contract/lead-values.ts';
import { retryMinutes } from '../core/rate-limit.ts';
import { type LeadFormKind, track } from './track.ts';
import { uuid } from './uuid.ts';
const CHAT = 'the chat on this website';
const FAILURE =
  `Sorry, we could not record your enquiry. Please use ${CHAT} or email ${COMPANY.salesEmail} ` +
  'and we will get back to you.';
/** The event the chat launcher (chat/launcher.ts) listens for on `document`; `detail.opener` gets focus back. */
const OPEN_CHAT = 'kartage:open-chat';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
type Problem = [field: string, message: string];

/** The form's parts its functions share: the elements and the lookups on them. */
interface Parts {
  form: HTMLFormElement;
  intent: string;
  kind: LeadFormKind;
  status: HTMLElement;
  summary: HTMLElement;
  button: HTMLButtonElement;
  control: (name: string) => Control;
}

function partsOf(form: HTMLFormElement): Parts {
  const intent = (form.elements.namedItem('intent') as HTMLInputElement).value;
  return {
    form,
    intent,
    kind: intent === 'demo' ? 'demo' : 'enquiry',
    status: document.getElementById('lead-form-status')!,
    summary: form.querySelector<HTMLElement>('.error-summary')!,
    button: form.querySelector<HTMLButtonElement>('button[type="submit"]')!,
    control: (name) => form.elements.namedItem(name) as Control,
  };
}

function labelOf(form: HTMLFormElement, c: Control): string {
  return (form.querySelector(`label[for="${c.id}"]`)?.textContent ?? c.name).replace(/\(required\)/, '').trim();
}

function collect(p: Parts): Record<string, string> {
  const data: Record<string, string> = {};
  for (const name of FIELDS) {
    const value = p.control(name).value.trim();
    if (value) data[name] = value; // empty optional fields are left out
  }
  data.intent = p.intent;
  return data;
}

function check(p: Parts, name: string, value: string): string | null {
  const c = p.control(name);
  const label = labelOf(p.form, c);
  if (!value) return c.required ? `Enter your ${label.toLowerCase()}.` : null;
  const max = 'maxLength' in c ? c.maxLength : -1;
  if (max > 0 && value.length > max)
    return `${label} must be ${max.toLocaleString('en-AU')} characters or fewer (it is ${value.length.toLocaleString('en-AU')}).`;
  if (name !== 'message' && CONTROL.test(value))
    return `${label} must be one line, without tabs or other control characters.`;
  if (name === 'email' && !EMAIL.test(value)) return 'Enter a valid email address, like sam@yourcompany.com.au.';
  const pattern = c.getAttribute('pattern');
  if (pattern && !new RegExp(`^(?:${pattern})$`).test(value))
    return c.dataset.patternMessage ?? `Check the ${label.toLowerCase()}.`;
  if (c instanceof HTMLSelectElement && ![...c.options].some((o) => o.value === value))
    return `Choose one of the listed options for ${label.toLowerCase()}.`;
  return null;
}

function setFieldError(c: Control, message: string | null): void {
  const err = document.getElementById(`${c.id}-error`);
  if (!err) return;
  const ids = (c.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id && id !== err.id);
  if (message) {
    err.textContent = message;
    err.hidden = false;
    c.setAttribute('aria-invalid', 'true');
    ids.unshift(err.id);
  } else {
    err.textContent = '';
    err.hidden = true;
    c.removeAttribute('aria-invalid');
  }
  if (ids.length) c.setAttribute('aria-describedby', ids.join(' '));
  else c.removeAttribute('aria-describedby');
}

/** Checks every field, marks each one's error, and returns the problems in field order. */
function validate(p: Parts, data: Record<string, string>): Problem[] {
  const problems: Problem[] = [];
  for (const name of FIELDS) {
    const message = check(p, name, data[name] ?? '');
    setFieldError(p.control(name), message);
    if (message) problems.push([name, message]);
  }
  return problems;
}

function showSummary(p: Parts, problems: Problem[]): void {
  const { summary } = p;
  summary.replaceChildren();
  if (!problems.length) {
    summary.hidden = true;
    return;
  }
  const title = document.createElement('p');
  title.className = 'error-summary-title';
  title.textContent = problems.length === 1 ? 'Please fix 1 problem:' : `Please fix ${problems.length} problems:`;
  const list = document.createElement('ul');
  for (const [name, message] of problems) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#${p.control(name).id}`;
    a.textContent = message;
    a.addEventListener('click', (e) => {
      e.preventDefault();
      p.control(name).focus();
    });
    li.append(a);
    list.append(li);
  }
  summary.append(title, list);
  summary.hidden = false;
  summary.focus();
}

function setStatus(status: HTMLElement, kind: 'info' | 'success' | 'error', message: string, focus = false): void {
  status.dataset.state = kind;
  // "the chat on this website" is a button that opens the chat (the contract's fallback for a 502).
  const at = message.indexOf(CHAT);
  if (at < 0) status.textContent = message;
  else {
    const open = document.createElement('button');
    open.type = 'button';
    open.className = 'chat-open-link';
    open.textContent = CHAT;
    open.addEventListener('click', () =>
      document.dispatchEvent(new CustomEvent(OPEN_CHAT, { detail: { opener: open } })),
    );
    status.replaceChildren(message.slice(0, at), open, message.slice(at + CHAT.length));
  }
  if (focus) {
    status.tabIndex = -1;
    status.focus();
  }
}

function showBusy(p: Parts, on: boolean): void {
  p.button.disabled = on;
  p.form.toggleAttribute('aria-busy', on);
  p.button.textContent = on ? 'Sending…' : (p.button.dataset.label ?? 'Send');
}

/** The funnel's first step: the form came into view (once). */
function trackViewed(p: Parts): void {
  if ('IntersectionObserver' in window) {
    const seen = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      seen.disconnect();
      track('form_viewed', { form: p.kind });
    });
    seen.observe(p.form);
  } else track('form_viewed', { form: p.kind });
}

/** Posts the lead; null when the request never reached the server. */
async function postLead(body: string, key: string): Promise<Response | null> {
  try {
    return await fetch('/api/lead', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': key },
      body,
    });
  } catch {
    return null;
  }
}

function thanks(p: Parts, data: Record<string, string>): string {
  const first = (data.name ?? '').split(/\s+/)[0];
  return p.intent === 'demo'
    ? `Thank you, ${first}. Your demo request is in: we will email you within one business day to pick a time.`
    : `Thank you, ${first}. We have your enquiry and will reply within one business day.`;
}

/** The status line for the lead path's error answer. */
async function refusal(res: Response): Promise<string> {
  if (res.status === 400) {
    const err = (await res.json().catch(() => null)) as { error?: string } | null;
    return `We could not accept the form: ${err?.error ?? 'please check your details and try again.'}`;
  }
  if (res.status === 429) {
    const minutes = retryMinutes(res.headers.get('Retry-After'));
    const when = minutes ? `in ${minutes} minute${minutes === 1 ? '' : 's'}` : 'later';
    return (
      `Too many enquiries have been sent from this connection. Please try again ${when}, ` +
      `or email ${COMPANY.salesEmail}.`
    );
  }
  return FAILURE;
}

/** Shows the server's answer to a sent lead and reports it to analytics. */
async function showAnswer(p: Parts, res: Response | null, data: Record<string, string>): Promise<void> {
  if (!res) {
    setStatus(p.status, 'error', FAILURE, true);
    track('form_failed', { form: p.kind, status: 0 }); // 0: the request never reached the lead path
    return;
  }
  if (res.ok) {
    track('form_submitted', { form: p.kind });
    setStatus(p.status, 'success', thanks(p, data), true);
    p.form.reset();
    return;
  }
  track('form_failed', { form: p.kind, status: res.status });
  setStatus(p.status, 'error', await refusal(res), true);
}

/** Wires the lead form: checks as the visitor corrects a field, then the checked POST on submit. */
export function initLeadForm(form: HTMLFormElement): void {
  form.noValidate = true;
  const p = partsOf(form);
  /** Current attempt: the exact JSON sent and its key; the key is reused only while nothing changes. */
  let attempt: { body: string; key: string } | null = null;
  let sending = false;

  trackViewed(p);

  // Re-check a field as it is corrected, so its error goes away once it is fixed.
  form.addEventListener('input', (e) => {
    const c = e.target as Control;
    if (c.getAttribute?.('aria-invalid') === 'true') setFieldError(p.control(c.name), check(p, c.name, c.value.trim()));
  });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (sending) return;
    const data = collect(p);
    const problems = validate(p, data);
    showSummary(p, problems);
    if (problems.length) {
      setStatus(p.status, 'error', '');
      track('form_refused', { form: p.kind, field: problems[0]![0], problems: problems.length });
      return;
    }
    const body = JSON.stringify(data);
    if (!attempt || attempt.body !== body) attempt = { body, key: uuid() };
    sending = true;
    showBusy(p, true);
    setStatus(p.status, 'info', 'Sending your details…');
    const res = await postLead(body, attempt.key);
    sending = false;
    showBusy(p, false);
    await showAnswer(p, res, data);
  });
}
