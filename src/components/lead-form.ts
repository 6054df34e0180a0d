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

export function initLeadForm(form: HTMLFormElement): void {
  form.noValidate = true;
  const intent = (form.elements.namedItem('intent') as HTMLInputElement).value;
  const kind: LeadFormKind = intent === 'demo' ? 'demo' : 'enquiry';
  const status = document.getElementById('lead-form-status')!;
  const summary = form.querySelector<HTMLElement>('.error-summary')!;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const control = (name: string) => form.elements.namedItem(name) as Control;
  const labelOf = (c: Control) =>
    (form.querySelector(`label[for="${c.id}"]`)?.textContent ?? c.name).replace(/\(required\)/, '').trim();

  /** Current attempt: the exact JSON sent and its key; the key is reused only while nothing changes. */
  let attempt: { body: string; key: string } | null = null;
  let sending = false;

  function collect(): Record<string, string> {
    const data: Record<string, string> = {};
    for (const name of FIELDS) {
      const value = control(name).value.trim();
      if (value) data[name] = value; // empty optional fields are left out
    }
    data.intent = intent;
    return data;
  }

  function check(name: string, value: string): string | null {
    const c = control(name);
    const label = labelOf(c);
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

  function setFieldError(name: string, message: string | null): void {
    const c = control(name);
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

  function showSummary(problems: Problem[]): void {
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
      a.href = `#${control(name).id}`;
      a.textContent = message;
      a.addEventListener('click', (e) => {
        e.preventDefault();
        control(name).focus();
      });
      li.append(a);
      list.append(li);
    }
    summary.append(title, list);
    summary.hidden = false;
    summary.focus();
  }

  function setStatus(kind: 'info' | 'success' | 'error', message: string, focus = false): void {
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

  function busy(on: boolean): void {
    sending = on;
    button.disabled = on;
    form.toggleAttribute('aria-busy', on);
    button.textContent = on ? 'Sending…' : (button.dataset.label ?? 'Send');
  }

  /** Reports the lead path's error answer (0: the request never reached it). */
  const failed = (status: number) => track('form_failed', { form: kind, status });

  // The funnel's first step: the form came into view (once).
  if ('IntersectionObserver' in window) {
    const seen = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      seen.disconnect();
      track('form_viewed', { form: kind });
    });
    seen.observe(form);
  } else track('form_viewed', { form: kind });

  // Re-check a field as it is corrected, so its error goes away once it is fixed.
  form.addEventListener('input', (e) => {
    const c = e.target as Control;
    if (c.getAttribute?.('aria-invalid') === 'true') setFieldError(c.name, check(c.name, c.value.trim()));
  });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (sending) return;
    const data = collect();
    const problems: Problem[] = [];
    for (const name of FIELDS) {
      const message = check(name, data[name] ?? '');
      setFieldError(name, message);
      if (message) problems.push([name, message]);
    }
    showSummary(problems);
    if (problems.length) {
      setStatus('error', '');
      track('form_refused', { form: kind, field: problems[0]![0], problems: problems.length });
      return;
    }

    const body = JSON.stringify(data);
    if (!attempt || attempt.body !== body) attempt = { body, key: uuid() };

    busy(true);
    setStatus('info', 'Sending your details…');
    let res: Response;
    try {
      res = await fetch('/api/lead', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': attempt.key },
        body,
      });
    } catch {
      busy(false);
      setStatus('error', FAILURE, true);
      failed(0);
      return;
    }
    busy(false);

    if (res.ok) {
      track('form_submitted', { form: kind });
      const first = (data.name ?? '').split(/\s+/)[0];
      setStatus(
        'success',
        intent === 'demo'
          ? `Thank you, ${first}. Your demo request is in: we will email you within one business day to pick a time.`
          : `Thank you, ${first}. We have your enquiry and will reply within one business day.`,
        true,
      );
      form.reset();
      return;
    }
    failed(res.status);
    if (res.status === 400) {
      const err = (await res.json().catch(() => null)) as { error?: string } | null;
      setStatus(
        'error',
        `We could not accept the form: ${err?.error ?? 'please check your details and try again.'}`,
        true,
      );
      return;
    }
    if (res.status === 429) {
      const minutes = retryMinutes(res.headers.get('Retry-After'));
      const when = minutes ? `in ${minutes} minute${minutes === 1 ? '' : 's'}` : 'later';
      setStatus(
        'error',
        `Too many enquiries have been sent from this connection. Please try again ${when}, ` +
          `or email ${COMPANY.salesEmail}.`,
        true,
      );
      return;
    }
    setStatus('error', FAILURE, true);
  });
}
