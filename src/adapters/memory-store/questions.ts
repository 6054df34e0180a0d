/** @module The in-process store's count of unanswered questions, and of what each asker counted that day. */
import {
  ASKER_DAILY_QUESTIONS,
  ASKER_TRUSTED_QUESTIONS,
  DAY_MS,
  QUESTION_STALE_MS,
} from '../../core/unanswered/index.ts';
import type { Store } from '../../core/ports.ts';

interface Question {
  text: string;
  count: number;
  lastAsked: number;
  /** Flood-shaped: first counted past an asker's trusted questions, and since by no asker among its first. */
  suspect: boolean;
}
type Counted = [key: string, { count: number; lastAsked: number }];

/** By key (keys are distinct: never equal). */
const byKey = (a: Counted, b: Counted) => (a[0] < b[0] ? -1 : 1);
/** The order flood-shaped questions make room in: least asked first, then the longest unasked. */
const leastAsked = (a: Counted, b: Counted) =>
  a[1].count - b[1].count || a[1].lastAsked - b[1].lastAsked || byKey(a, b);
/** The longest unasked first. */
const longestUnasked = (a: Counted, b: Counted) => a[1].lastAsked - b[1].lastAsked || byKey(a, b);
/** The order of the report: most asked first, then the last asked. */
const mostAsked = (a: Counted, b: Counted) => b[1].count - a[1].count || b[1].lastAsked - a[1].lastAsked || byKey(a, b);

/** The end of the UTC day of `at` (epoch ms), when an asker's record of that day goes. */
const dayEnd = (at: number) => (Math.floor(at / DAY_MS) + 1) * DAY_MS;

/** The store's `countQuestion` and `topQuestions`, keeping at most `limit` questions. */
export function memoryQuestions(limit: number): Pick<Store, 'countQuestion' | 'topQuestions'> {
  const questions = new Map<string, Question>();
  /** What each asker counted on its day (or that it flooded), until the day ends. */
  const askers = new Map<string, { keys: Set<string>; flood: boolean; until: number }>();
  let lastAskerSweep = 0;

  /** Records that `asker` counted `key`: trusted (among its first of the day) or not; undefined: not counted. */
  const admit = (key: string, asker: string, at: number) => {
    let a = askers.get(asker);
    if (!a || a.until <= at) askers.set(asker, (a = { keys: new Set(), flood: false, until: dayEnd(at) }));
    if (a.flood || a.keys.has(key)) return undefined;
    if (a.keys.size >= ASKER_DAILY_QUESTIONS) {
      // A flood: what it counted is withdrawn, and nothing more of its day counts.
      for (const k of a.keys) {
        const q = questions.get(k);
        if (q && --q.count <= 0) questions.delete(k);
      }
      Object.assign(a, { keys: new Set(), flood: true });
      return undefined;
    }
    const trusted = a.keys.size < ASKER_TRUSTED_QUESTIONS;
    a.keys.add(key);
    return { trusted, mine: a.keys };
  };

  /** Past `limit`, makes room for the new `key`: stale questions first, then flood-shaped ones, else drops `key`. */
  const makeRoom = (key: string, at: number, mine: Set<string> | undefined) => {
    let excess = questions.size - limit;
    if (excess <= 0) return;
    const stale = Math.floor((at - QUESTION_STALE_MS) / 1000) * 1000;
    const others = [...questions].filter(([k]) => k !== key);
    const victims = [
      ...others.filter(([, q]) => q.lastAsked < stale).sort(longestUnasked),
      ...others.filter(([, q]) => q.lastAsked >= stale && q.suspect).sort(leastAsked),
    ];
    for (const [k] of victims.slice(0, excess)) {
      questions.delete(k);
      excess--;
    }
    if (excess > 0) {
      questions.delete(key);
      mine?.delete(key);
    }
  };

  return {
    async countQuestion(key, text, at, asker) {
      if (at - lastAskerSweep >= 60_000) {
        lastAskerSweep = at;
        for (const [k, a] of askers) if (a.until <= at) askers.delete(k);
      }
      const second = Math.floor(at / 1000) * 1000;
      const admitted = asker === undefined ? { trusted: true, mine: undefined } : admit(key, asker, at);
      if (!admitted) return;
      const held = questions.get(key);
      if (held) {
        held.count++;
        held.lastAsked = Math.max(held.lastAsked, second);
        if (admitted.trusted) held.suspect = false;
        return;
      }
      questions.set(key, { text, count: 1, lastAsked: second, suspect: !admitted.trusted });
      makeRoom(key, at, admitted.mine);
    },
    async topQuestions(n) {
      return [...questions]
        .sort(mostAsked)
        .slice(0, Math.max(0, Math.floor(n)))
        .map(([, { text, count, lastAsked }]) => ({ text, count, lastAsked }));
    },
  };
}
