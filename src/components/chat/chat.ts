/**
 * @module The chat panel, loaded on first use (launcher.ts): a modal <dialog> holding the conversation (kept for
 * the tab in sessionStorage, nothing server-side), a question box, and the answers of POST /api/v1/ask: the
 * quoted sentences, the sections cited (role "answer") and the related pages, each a link that lands on its
 * section, and the handoff to a person (handoff.ts). Each answer is announced once, whole, through a polite live
 * region. Focus moves into the panel on open and back to what opened it on close; Escape closes it.
 */
import css from './chat.css?inline';
import { ASK_LIMITS } from '../../contract/limits.ts';
import {
  historyOf,
  type Intent,
  loadTurns,
  saveTurns,
  type Source,
  sourceName,
  type Turn,
  turnOf,
} from './conversation.ts';
import { ACTION, EMAIL, handoffForm, PHONE } from './handoff.ts';
import { escapeHtml, pathOf, plainText, renderAnswer } from './render.ts';
import { track, trackAnswer } from '../track.ts';

const QUESTION_MIN = 2;
const QUESTION_MAX = ASK_LIMITS.questionMax;
const SUGGESTIONS = ['Is there a free trial?', 'How much does Kartage cost?', 'Does the crew app work without signal?'];
const CLOSE_ICON = '<svg viewBox="0 0 20 20" aria-hidden="true"><path d="m5 5 10 10M15 5 5 15"/></svg>';

let dialog: HTMLDialogElement | undefined;
let log: HTMLElement;
let input: HTMLInputElement;
let live: HTMLElement;
let returnTo: HTMLElement | null = null;
let fallbackFocus: HTMLElement | null = null;
let turns: Turn[] = [];
let asking = false;

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls = '', html = ''): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (html) e.innerHTML = html;
  return e;
};

/** Says `text` once through the polite live region (emptied first, so the same text is said again). */
function announce(text: string): void {
  live.textContent = '';
  setTimeout(() => {
    live.textContent = text;
  }, 60);
}

function sourceList(sources: Source[], kind: 'cited' | 'related', label: string): HTMLElement[] {
  if (!sources.length) return [];
  const id = `chat-src-${Math.random().toString(36).slice(2, 9)}`;
  const items = sources
    .map((s) => `<li><a href="${escapeHtml(pathOf(s.url))}">${escapeHtml(sourceName(s))}</a></li>`)
    .join('');
  const list = kind === 'cited' ? 'ol' : 'ul';
  return [el('p', 'chat-label', escapeHtml(label)), el(list, `chat-sources chat-sources--${kind}`, items)].map(
    (e, i) => {
      if (i === 0) e.id = id;
      else e.setAttribute('aria-labelledby', id);
      return e;
    },
  );
}

/** The buttons that open a handoff form, and the form in their place when one is pressed. */
function handoffActions(intents: Intent[]): HTMLElement {
  const box = el('div', 'chat-actions');
  for (const intent of intents) {
    const b = el('button', intents.length === 1 ? 'btn btn-primary' : 'btn btn-secondary', escapeHtml(ACTION[intent]));
    b.type = 'button';
    b.addEventListener('click', () => {
      const form = handoffForm(
        intent,
        () => turns,
        () => {
          form.remove();
          box.hidden = false;
          b.focus();
        },
      );
      box.hidden = true;
      (box.closest('.chat-handoff') ?? box).after(form);
      form.querySelector<HTMLElement>('input, select, textarea')?.focus();
    });
    box.append(b);
  }
  return box;
}

/** The answer of a turn, filled into its bubble. */
function fillAnswer(a: HTMLElement, t: Turn): void {
  a.className = 'chat-a';
  a.dataset.answered = String(t.answered);
  a.replaceChildren(el('div', 'chat-text', renderAnswer(t.answer)));
  const cited = t.sources.filter((s) => s.role === 'answer');
  const related = t.sources.filter((s) => s.role === 'related');
  a.append(...sourceList(cited, 'cited', cited.length === 1 ? 'Source' : 'Sources'));
  a.append(...sourceList(related, 'related', 'Related pages'));
  if (t.handoff) {
    const h = el('div', 'chat-handoff');
    h.append(el('p', '', escapeHtml(t.handoff.label)), handoffActions([t.handoff.intent]));
    a.append(h);
  }
}

function turnElement(question: string): { turn: HTMLElement; answer: HTMLElement } {
  const turn = el('div', 'chat-turn');
  const q = el('p', 'chat-q');
  q.append(el('span', 'vh', 'You asked: '), document.createTextNode(question));
  const answer = el('div', 'chat-a');
  turn.append(q, answer);
  log.append(turn);
  return { turn, answer };
}

function intro(): HTMLElement {
  const box = el(
    'div',
    'chat-intro',
    '<p>Ask about Kartage: the product, pricing, security or getting started. Every answer quotes this website ' +
      'and links to the section it comes from.</p><p class="chat-label">Try asking</p>',
  );
  const list = el('ul', 'chat-suggest');
  for (const s of SUGGESTIONS) {
    const li = el('li');
    const b = el('button', '', escapeHtml(s));
    b.type = 'button';
    b.addEventListener('click', () => ask(s));
    li.append(b);
    list.append(li);
  }
  box.append(list, el('p', 'chat-label', 'Rather talk to a person?'), handoffActions(['callback', 'message']));
  return box;
}

function showAll(): void {
  log.replaceChildren(intro());
  for (const t of turns) fillAnswer(turnElement(t.question).answer, t);
}

function errorText(res: Response | null, body: { error?: string } | null): string {
  if (res?.status === 429) {
    const s = Math.max(1, Math.ceil(Number(res.headers.get('Retry-After')) || 60));
    const wait = s < 120 ? `${s} second${s === 1 ? '' : 's'}` : `${Math.ceil(s / 60)} minutes`;
    return `Too many questions from this connection in a short time. Please ask again in ${wait}.`;
  }
  if (res && (res.status === 400 || res.status === 413) && body?.error)
    return `The chat could not take that question: ${body.error}`;
  return `The chat could not answer just now. Please try again, call ${PHONE} or email ${EMAIL}.`;
}

async function ask(raw: string): Promise<void> {
  const question = raw.replace(/\s+/g, ' ').trim();
  if (asking) return;
  if ([...question].length < QUESTION_MIN) {
    announce('Type a question first.');
    input.focus();
    return;
  }
  asking = true;
  input.value = '';
  const { turn, answer } = turnElement(question);
  answer.replaceChildren(el('p', 'chat-pending', 'Looking through the website'));
  turn.scrollIntoView({ block: 'end' });
  let res: Response | null = null;
  let body: Record<string, unknown> | null = null;
  try {
    const history = historyOf(turns);
    res = await fetch('/api/v1/ask', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(history.length ? { question, conversation: history } : { question }),
    });
    body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  } catch {
    res = null;
  }
  asking = false;
  if (res?.ok && body) {
    const t = turnOf(body, question);
    trackAnswer(t, body.reason);
    turns.push(t);
    saveTurns(turns);
    fillAnswer(answer, t);
    const cited = t.sources.filter((s) => s.role === 'answer').length;
    const related = t.sources.length - cited;
    const links = cited
      ? ` ${cited} source${cited === 1 ? '' : 's'} linked.`
      : related
        ? ` ${related} related page${related === 1 ? '' : 's'} linked.`
        : '';
    announce(`${plainText(t.answer)}${links}${t.handoff ? ` ${t.handoff.label}` : ''}`);
  } else {
    const message = errorText(res, body as { error?: string } | null);
    answer.className = 'chat-a chat-a--error';
    answer.replaceChildren(el('p', '', escapeHtml(message)));
    if (!input.value) input.value = question; // kept, to send again
    announce(message);
  }
  turn.scrollIntoView({ block: 'start' });
}

function build(): HTMLDialogElement {
  const style = el('style');
  style.textContent = css;
  document.head.append(style);
  const d = el('dialog', 'chat');
  d.setAttribute('aria-labelledby', 'chat-title');
  d.innerHTML =
    '<div class="chat-box"><div class="chat-head"><div class="chat-head-text"><h2 id="chat-title">Ask Kartage</h2>' +
    '<p>Answers quoted from this website</p></div>' +
    '<button type="button" data-restart>New chat</button>' +
    `<button type="button" data-close aria-label="Close the chat">${CLOSE_ICON}</button></div>` +
    '<div class="chat-log" role="region" aria-label="Conversation" tabindex="-1"></div>' +
    '<form class="chat-ask"><label class="vh" for="chat-question">Your question</label>' +
    `<input id="chat-question" name="question" type="text" maxlength="${QUESTION_MAX}" autocomplete="off" ` +
    'enterkeyhint="send" placeholder="Ask a question">' +
    '<button class="btn btn-primary" type="submit">Send</button></form>' +
    '<p class="vh" aria-live="polite" data-live></p></div>';
  document.body.append(d);
  log = d.querySelector('.chat-log')!;
  input = d.querySelector('input')!;
  live = d.querySelector('[data-live]')!;
  d.querySelector('form')!.addEventListener('submit', (e) => {
    e.preventDefault();
    ask(input.value);
  });
  d.querySelector('[data-close]')!.addEventListener('click', () => d.close());
  d.querySelector('[data-restart]')!.addEventListener('click', () => {
    turns = [];
    saveTurns(turns);
    showAll();
    input.focus();
    announce('New conversation. Ask a question.');
  });
  d.addEventListener('click', (e) => {
    if (e.target === d) d.close(); // the backdrop
    const a = (e.target as Element).closest?.('a[href]') as HTMLAnchorElement | null;
    // A section of this very page: close the panel so the section shows.
    if (a && a.origin === location.origin && a.pathname === location.pathname && a.hash) d.close();
  });
  d.addEventListener('close', () => {
    const to = returnTo?.isConnected ? returnTo : fallbackFocus;
    to?.focus();
  });
  turns = loadTurns();
  showAll();
  return d;
}

/** Opens the chat; `opener` gets focus back when it closes (else `launcher`). */
export function openChat(opener?: HTMLElement | null, launcher?: HTMLElement | null): void {
  dialog ??= build();
  returnTo = opener ?? null;
  fallbackFocus = launcher ?? opener ?? null;
  if (!dialog.open) {
    dialog.showModal();
    track('chat_opened', {});
  }
  input.focus();
  log.scrollTop = log.scrollHeight;
}
