/**
 * @module When the assistant offers a person: the visitor (or an agent writing for one) asks for a demo, a
 * person, a call back, a quote or to leave a message, or the site has no answer. The label fits the hour: within
 * the support hours the site states (`SUPPORT_HOURS`, the contact page's hours) it gives the phone number for now;
 * outside them it says when a person will reply.
 */
import { fold, own } from '../search/analyze.ts';
import { COMPANY, clockHour, DAY_NAMES, SUPPORT_HOURS, type SupportHours } from '../../contract/company.ts';
import { CHAT_SPEAK } from './phrases.ts';

export type HandoffIntent = 'demo' | 'contact' | 'callback' | 'message';

export interface Handoff {
  intent: HandoffIntent;
  label: string;
  url: string;
}

/** Words of a fault report (an existing customer's problem: support is the right channel). */
const FAULT = `not working|isn'?t working|doesn'?t work|stopped working|won'?t (load|open|sync|work|save|send|print|let)|not (loading|syncing|sending|saving|printing|updating|showing up)|(isn'?t|is not|aren'?t|are not|not|stopped) (pushing|going|coming|syncing|flowing) (across|through|over|in)|broken|broke|bug|bugs|buggy|crash|crashes|crashing|crashed|error|errors|erroring|errored|fail|fails|failed|failing|glitch|glitches|glitching|freezes|freezing|keeps (hanging|dropping out|logging (me|us) out)|playing up|outage|is down|went down|can'?t (log|sign) ?in|(cannot|can not|unable to|couldn'?t) (log|sign) ?(in|on)|(can'?t|cannot|unable to) (log|sign) ?into|(none of (us|our [a-z]+)|nobody|no one) (can|could) (log|sign) ?(in|into|on)|locked out`;
/** An existing customer asking for support in so many words. */
const NEEDS_SUPPORT = `(need|needs|want|require|requesting|get) (some |urgent |technical |tech )?support|(we're|we are|i'm|i am) (already )?(a )?(customer|customers|client|clients) (of yours|of kartage|and)`;
const SUPPORT = new RegExp(String.raw`\b(${FAULT}|${NEEDS_SUPPORT}|our account|my account)\b`);
const FAULT_WORDS = new RegExp(String.raw`\b(${FAULT})\b`, 'g');
/**
 * A security bug found by someone ("I found a security bug in your portal, where do I report it?") is a question for
 * the site's disclosure policy, not a fault of their account that support fixes.
 */
const SECURITY_BUG = /\b(security|securty) (bug|bugs|hole|holes|flaw|flaws|issue|issues|problem|problems)\b/g;
/** A hypothetical ("if the system goes down...", "what happens when..."): a question, not a fault report. */
const HYPOTHETICAL =
  /^(if|what if|what happens|in case|say|suppose|supposing|imagine)\b|\b(if|when|in case) (the|our|your|a|an|my|we|you|it|its|it's|someone|something|somethings|something's|anything|there's|theres|kartage|kartage's)\b/;
/** Asking how soon a person replies is a question about the process, not a request to leave a message. */
const HOW_SOON = /\bhow (quick|quickly|fast|soon|long)\b|\bwhat('?s| is) (the|your) (response|reply) time\b/;

/**
 * Patterns on the folded question, tried in order: the first intent whose pattern matches wins. "Call him back"
 * asks for a call for someone else (an agent writing for a person); "before I call them back" is the visitor
 * calling their own customer, a question about the product.
 */
const INTENTS: readonly (readonly [HandoffIntent, RegExp])[] = [
  [
    'message',
    /\b(leave|drop|send|take|pass on|passing on|pass|record) (a |an |my |me a |the |this )?(message|msg|note|voicemail|question for)|\b(nobody|no one|noone|nobody'?s|no-one) (is )?(around|online|there|available|answering)|\bafter hours\b|\bout of hours\b|\boutside (of )?(your |business |office )?hours\b|\bwhen you('re| are) (back|open)\b|\bget back to me\b/,
  ],
  [
    'callback',
    /(?<!\b(have|has|need|needs|got|having) to |\b(they|customers|clients|tenants) )\b(call|ring|phone|bell) (me|us)( back)?\b|(?<!\b(i|we)( (will|can|could|should|would|then|just|usually|always|need to|have to|want to))? )\b(call|ring|phone|bell) (him|her|them)( back)?\b|\b(call|ring) ?backs?\b|\bcall-back\b|\b(give|gimme) (me |us )?(a )?(call|ring|bell)\b|\bcan (someone|somebody|you) (call|ring|phone)\b|\bhave (someone|somebody|sales|a person) (call|ring|phone)|\b(call|ring) (me|us) (on|at|tomorrow|today|this|next|between|after|before)\b|\b(like|want|need|get|have|arrange|book|request)\b[^.?!]{0,20}\b(a )?(phone )?(call|ring) from\b|\b(try|reach|get|contact) (me|us)( again)? on (my|our|the|this) (mobile|phone|number|cell|landline|mob)\b|\bmissed (a|your|the) (call|phone call)\b|\b(like|likes|want|wants|need|needs|arrange|book|request|requests) (a |an )?(quick )?(phone )?(call|ring|callback)\b(?! (recording|log|logs|feature|tracking))/,
  ],
  [
    'demo',
    /\b(book|booking|schedule|scheduling|arrange|arranging|organise|organize|set up|get|have|want|like|request|requesting|see|need|keen on|interested in|after|do)\b[^.?!]{0,30}\b(demo|demos|demonstration|walkthrough|walk-through|walk through)\b|\b(demo|walkthrough) (please|for (me|us|my|our|[a-z]+ from))\b|\bwalk (me|us) through\b|\bshow (me|us) (around|how|the|kartage|it)\b|\bsee\b[^.?!]{0,40}\b(in action|working|running|live)\b|\b(product|guided) tour\b|\b(session|meeting|call|time)\b[^.?!]{0,30}\bwith (one of )?(your |a |the )?product (people|person|team|specialists?|experts?)\b|\bsee how (it|kartage) (handles|works|does|would)\b/,
  ],
  [
    'contact',
    new RegExp(
      String.raw`\b(talk|speak|chat|get in touch|be in touch|get hold|connect me|put me through) (to|with)\b|\b(real|actual|live) (person|human|people|agent)\b|\b(a|an|some) (human|person|salesperson|sales person|sales rep|rep|account manager)\b|\bcontact (sales|support|someone|you|the team|a person)\b|\bwho (do|should|can) (i|we) (contact|call|ring|email|talk to|speak to) to (get|have) (this|it|that) (fixed|sorted|looked at)\b|\b(sales|support) (team|contact|email)\b|\b(enquiry|enquire|inquiry|inquire)\b|\b(quote|price) for (my|our|a|the) (move|removal|house|home|office|relocation|storage)\b|\bquote (to|for) (move|moving|shift|relocat)|\bmove (my|our) (house|home|unit|flat|apartment|stuff|furniture|belongings)\b|\b(put|get) (me|us) in touch\b|\b(request|access|delete|correct|see) (a copy of |to )?(my|the) (personal )?(information|data|details)\b|\b(${FAULT}|${NEEDS_SUPPORT})\b|\bi'?m an? (ai |virtual )?(assistant|agent)\b|\bon behalf of\b|\b(customer|client) of (yours|kartage)\b|\bemail (me|us|someone|you)\b|\b(pass|send|give|forward|hand) (on )?(my|our) (contact )?(details|info|information|number|email) (on )?(to|onto|through to)\b|\b(written|formal|custom|tailored|enterprise) (quote|proposal)\b|\b(quote|proposal)\b[^.?!]{0,15}\b(sent|emailed) (over|through|to)\b|\b(get|put|pull|send|prepare|draw up) (me |us )?(a )?(quote|proposal) (together|up|through|over|for (us|me|enterprise))\b|\b(contact|email|reach) me (at|on|via)\b|\b(someone|somebody|anyone|sales|a person|your team|you)( from [a-z]+( team)?)? (get|be) in touch\b|\bget in touch (by|via|over|on) (email|e-mail|phone|mail)\b|\b(want|need|like|after) (a )?(proper|firm|formal|full|detailed) (quote|proposal)\b`,
    ),
  ],
];

/**
 * The intent a question asks a person for, if any, and the question with the words of that request taken out
 * (what is left may still be a question for the site: "book a demo of storage billing" -> "of storage billing").
 */
export function handoffIntent(question: string): { intent: HandoffIntent; rest: string } | undefined {
  let q = fold(question)
    .replace(/[’‘]/g, "'")
    .replace(/\b[a-z0-9]+\b/g, (w) => own(CHAT_SPEAK, w) ?? w);
  q = q.replace(SECURITY_BUG, 'vulnerability');
  if (HYPOTHETICAL.test(q)) q = q.replace(FAULT_WORDS, ' ');
  if (HOW_SOON.test(q)) q = q.replace(/\bget back to (me|us|people|them|you|customers|someone)\b/g, 'reply');
  // Sales getting back to someone about a quote is an enquiry, not a message left for whoever is around.
  if (/\b(sales|quote|quotes|proposal)\b/.test(q)) q = q.replace(/\bget back to (me|us)\b/g, 'get in touch with $1');
  for (const [intent, pattern] of INTENTS) {
    if (pattern.test(q)) {
      let rest = q;
      for (const [, p] of INTENTS) rest = rest.replace(new RegExp(p.source, 'g'), ' ');
      return { intent, rest };
    }
  }
  return undefined;
}

/** Whether an existing customer reports a fault (the right channel is support, not sales). */
export const isSupportRequest = (question: string) => {
  const q = fold(question).replace(/[’‘]/g, "'").replace(SECURITY_BUG, 'vulnerability');
  return !HYPOTHETICAL.test(q) && SUPPORT.test(q);
};

/**
 * Whether `now` (ms since the epoch) falls within support hours (`SUPPORT_HOURS` unless given), and when they next
 * open.
 */
export function supportHours(now: number, hours: SupportHours = SUPPORT_HOURS): { open: boolean; opens: string } {
  const local = new Date(now + hours.utcOffsetHours * 3600_000);
  const day = local.getUTCDay();
  const hour = local.getUTCHours();
  const openOn = (d: number) => hours.days.includes(d % 7);
  const open = openOn(day) && hour >= hours.open && hour < hours.close;
  let ahead = 0;
  // Open or closed for the day: the next day that opens (a week at most, for a clock with no open day).
  if (!openOn(day) || hour >= hours.open) while (++ahead < 7 && !openOn(day + ahead));
  const when = ahead === 0 ? 'today' : ahead === 1 ? 'tomorrow' : DAY_NAMES[(day + ahead) % 7];
  return { open, opens: `${clockHour(hours.open)} ${hours.zone} ${when}` };
}

/** The handoff for an intent at a time: what to tell the visitor and where the form is. */
export function handoffFor(intent: HandoffIntent, now: number, origin: string, support = false): Handoff {
  const { open, opens } = supportHours(now);
  const phone = COMPANY.phone;
  const hours = COMPANY.supportHours;
  const url = (path: string) => `${origin}${path}`;
  switch (intent) {
    case 'demo':
      return {
        intent,
        label: open
          ? `Book a demo: leave your details here and a product specialist will arrange a ${COMPANY.demoMinutes}-minute walkthrough, or call ${phone} now (${hours}).`
          : `Book a demo: leave your details here and a product specialist will contact you from ${opens} to arrange a ${COMPANY.demoMinutes}-minute walkthrough.`,
        url: url('/demo'),
      };
    case 'callback':
      return {
        intent,
        label: open
          ? `Ask for a call back: leave your number and a good time and we will ring you, or call ${phone} now (${hours}).`
          : `Ask for a call back: leave your number and a good time. We are offline until ${opens} and will ring you at the time you choose.`,
        url: url('/contact'),
      };
    case 'message':
      return {
        intent,
        label: open
          ? `Leave a message here and a person will reply within one business day, or call ${phone} now (${hours}).`
          : `Leave a message here: nobody is online until ${opens}, and a person will reply then, within one business day.`,
        url: url('/contact'),
      };
    default:
      if (support) {
        return {
          intent: 'contact',
          label: open
            ? `For a problem with your Kartage account, contact support: call ${phone} now or email ${COMPANY.supportEmail}.`
            : `For a problem with your Kartage account, email ${COMPANY.supportEmail} or use in-app chat: support is back at ${opens}, and urgent problems are picked up first.`,
          url: url('/contact#who-to-contact'),
        };
      }
      return {
        intent: 'contact',
        label: open
          ? `Talk to a person: call ${phone} now (${hours}), or send your question here and we will reply within one business day.`
          : `Send your question to our team here: nobody is online until ${opens}, and a person will reply then, within one business day.`,
        url: url('/contact'),
      };
  }
}
