/**
 * @module The site's analytics, the one module its scripts call. `startAnalytics()` (BaseLayout, every page)
 * loads Vercel Web Analytics and Speed Insights (vercel-insights.ts, from the site's own `/_vercel/` paths) once
 * the page has loaded and the browser is idle; `track(name, props)` records a step of the lead, chat and search
 * funnel. Both do something only on a page built with analytics (its `kartage:analytics` meta, from the ANALYTICS
 * setting) whose visitor sends neither Global Privacy Control nor Do Not Track; otherwise nothing is loaded and
 * nothing is sent. An event carries only the properties of `FunnelEvents`: form and field names, intents,
 * statuses, counts and buckets, never what a visitor typed (a string that is not a short token is dropped).
 */

import { ANALYTICS_META } from './analytics-setting.ts';

/** The page's lead forms, by intent. */
export type LeadFormKind = 'demo' | 'enquiry';
/** The chat's handoffs (chat/conversation.ts Intent). */
export type HandoffIntent = 'demo' | 'contact' | 'callback' | 'message';
/** How many results a site search found. */
export type ResultBucket = '0' | '1-3' | '4+';

/** Each event of the funnel and its properties. */
export interface FunnelEvents {
  /** A lead form came into view. */
  form_viewed: { form: LeadFormKind };
  /** The lead was recorded (2xx). */
  form_submitted: { form: LeadFormKind };
  /** The browser's checks stopped a submission: the first field with a problem, and how many had one. */
  form_refused: { form: LeadFormKind; field: string; problems: number };
  /** The lead path answered an error (400, 429, 502; 0 when the request never reached it). */
  form_failed: { form: LeadFormKind; status: number };
  /** The chat panel opened. */
  chat_opened: Record<string, never>;
  /** A chat question the site answers. */
  chat_answered: Record<string, never>;
  /** A chat question the site has no answer for; `reason` when the answer gives one. */
  chat_unanswered: { reason?: string };
  /** A chat answer offering a person, with the offer's intent. */
  chat_handed_off: { intent: HandoffIntent; answered: boolean };
  /** A handoff form of the chat was recorded (2xx). */
  handoff_submitted: { intent: HandoffIntent };
  /** The search page listed results. */
  search_run: { results: ResultBucket };
}
export type FunnelEvent = keyof FunnelEvents;
/** What an event sends: each property a token, a number or a flag. */
export type Properties = Record<string, string | number | boolean>;
type Send = (name: string, props: Properties) => void;

/** A string property: a short lower-case token (`demo`, `email`, `1-3`, `4+`), never free text. */
const TOKEN = /^[a-z0-9][a-z0-9+_-]{0,31}$/;
/** Events kept while the analytics script loads (more are dropped). */
const PENDING_MAX = 50;

let allowed: boolean | undefined;
let send: Send | undefined;
let pending: [string, Properties][] = [];
let started = false;

/** Whether the visitor asks not to be tracked: Global Privacy Control, or Do Not Track. */
export function declined(nav: Navigator = navigator, win: Window = window): boolean {
  const n = nav as Navigator & { globalPrivacyControl?: boolean; doNotTrack?: string | null };
  return n.globalPrivacyControl === true || n.doNotTrack === '1' || (win as { doNotTrack?: string }).doNotTrack === '1';
}

/** Whether this page sends analytics: built with them, and not declined by the visitor. */
function enabled(): boolean {
  allowed ??=
    document.querySelector<HTMLMetaElement>(`meta[name="${ANALYTICS_META}"]`)?.content === 'vercel' && !declined();
  return allowed;
}

/** The properties an event may carry: finite numbers, flags and tokens; anything else is left out. */
export function clean(props: Record<string, unknown>): Properties {
  const out: Properties = {};
  for (const [k, v] of Object.entries(props)) {
    if (!TOKEN.test(k)) continue;
    if (typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) out[k] = v;
    else if (typeof v === 'string' && TOKEN.test(v)) out[k] = v;
  }
  return out;
}

/** The bucket of a result count. */
export function bucketOf(count: number): ResultBucket {
  return count <= 0 ? '0' : count <= 3 ? '1-3' : '4+';
}

/** Records one step of the funnel (a no-op without analytics, or when the visitor declines them). */
export function track<K extends FunnelEvent>(name: K, props: FunnelEvents[K]): void {
  if (!enabled()) return;
  const data = clean(props);
  if (send) send(name, data);
  else if (pending.length < PENDING_MAX) pending.push([name, data]);
}

/**
 * The events of one chat answer: answered or unanswered (with the answer's `reason`, when it is a token), and
 * handed off when it offers a person, with the offer's intent.
 */
export function trackAnswer(turn: { answered: boolean; handoff: { intent: HandoffIntent } | null }, reason?: unknown) {
  if (turn.answered) track('chat_answered', {});
  else track('chat_unanswered', typeof reason === 'string' ? { reason } : {});
  if (turn.handoff) track('chat_handed_off', { intent: turn.handoff.intent, answered: turn.answered });
}

/** After the page's `load` event, when the browser is idle: nothing of the analytics competes with the page. */
function whenSettled(run: () => void): void {
  const idle = () =>
    'requestIdleCallback' in window ? requestIdleCallback(run, { timeout: 3000 }) : setTimeout(run, 200);
  if (document.readyState === 'complete') idle();
  else addEventListener('load', idle, { once: true });
}

/** Loads the page's analytics once the page has settled (every page calls it; a no-op when not enabled). */
export function startAnalytics(): void {
  if (started || !enabled()) return;
  started = true;
  whenSettled(() => {
    import('./vercel-insights.ts')
      .then((m) => {
        send = m.startVercel();
        for (const [name, data] of pending) send(name, data);
        pending = [];
      })
      .catch(() => {
        pending = []; // offline, or the chunk is gone: nothing to send it with
      });
  });
}
