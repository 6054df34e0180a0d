/** @module The embedded store's count of unanswered questions, and of what each asker counted that day. */
import type { DatabaseSync } from 'node:sqlite';
import {
  ASKER_DAILY_QUESTIONS,
  ASKER_TRUSTED_QUESTIONS,
  DAY_MS,
  QUESTION_STALE_MS,
} from '../../core/unanswered/index.ts';
import type { Store, UnansweredQuestion } from '../../core/ports.ts';
import type { SqliteContext } from './context.ts';
import { prepared, row } from './transactions.ts';

/** The key of an asker's row that marks it a flood for the rest of its day (no question key is empty). */
const FLOOD = '';

/** Records that `asker` counted `key`: trusted (among its first of the day) or not; undefined: not counted. */
function admit(fast: DatabaseSync, key: string, asker: string, at: number): { trusted: boolean } | undefined {
  const asked = (
    prepared(fast, 'SELECT key FROM unanswered_asker WHERE asker = ? AND until > ?').all(asker, at) as {
      key: string;
    }[]
  ).map((r) => r.key);
  if (asked.includes(FLOOD) || asked.includes(key)) return undefined;
  const until = (Math.floor(at / DAY_MS) + 1) * DAY_MS;
  if (asked.length >= ASKER_DAILY_QUESTIONS) {
    // A flood: what it counted is withdrawn, and nothing more of its day counts.
    for (const k of asked) {
      prepared(fast, 'UPDATE unanswered SET count = count - 1 WHERE key = ?').run(k);
      prepared(fast, 'DELETE FROM unanswered WHERE key = ? AND count <= 0').run(k);
    }
    prepared(fast, 'DELETE FROM unanswered_asker WHERE asker = ?').run(asker);
    prepared(fast, 'INSERT INTO unanswered_asker (asker, key, until) VALUES (?, ?, ?)').run(asker, FLOOD, until);
    return undefined;
  }
  prepared(fast, 'INSERT OR REPLACE INTO unanswered_asker (asker, key, until) VALUES (?, ?, ?)').run(asker, key, until);
  return { trusted: asked.length < ASKER_TRUSTED_QUESTIONS };
}

/** Past `limit`, makes room for the new `key`: stale questions first, then flood-shaped ones, else drops `key`. */
function makeRoom(fast: DatabaseSync, key: string, asker: string | undefined, at: number, limit: number): void {
  const excess = Number(row(fast, 'SELECT count(*) AS n FROM unanswered')!.n) - limit;
  if (excess <= 0) return;
  const stale = Math.floor((at - QUESTION_STALE_MS) / 1000) * 1000;
  const gone = prepared(
    fast,
    `DELETE FROM unanswered WHERE key IN
     (SELECT key FROM unanswered WHERE key != ? AND (last_asked < ? OR suspect = 1)
      ORDER BY last_asked >= ?, CASE WHEN last_asked < ? THEN last_asked ELSE count END, last_asked, key
      LIMIT ?)`,
  ).run(key, stale, stale, stale, excess).changes;
  if (Number(gone) >= excess) return;
  prepared(fast, 'DELETE FROM unanswered WHERE key = ?').run(key);
  if (asker !== undefined) prepared(fast, 'DELETE FROM unanswered_asker WHERE asker = ? AND key = ?').run(asker, key);
}

/** The store's `countQuestion` and `topQuestions`, keeping at most `limit` questions. */
export function sqliteQuestions(
  { db, counts }: SqliteContext,
  limit: number,
): Pick<Store, 'countQuestion' | 'topQuestions'> {
  let lastAskerSweep = 0;
  return {
    async countQuestion(key, text, at, asker) {
      const second = Math.floor(at / 1000) * 1000;
      await counts(() => {
        let trusted = true;
        if (asker !== undefined) {
          if (at - lastAskerSweep >= 60_000) {
            lastAskerSweep = at;
            prepared(db.fast, 'DELETE FROM unanswered_asker WHERE until <= ?').run(at);
          }
          const admitted = admit(db.fast, key, asker, at);
          if (!admitted) return;
          trusted = admitted.trusted;
        }
        const counted = row(
          db.fast,
          `INSERT INTO unanswered (key, text, count, last_asked, suspect) VALUES (?, ?, 1, ?, ?)
           ON CONFLICT (key) DO UPDATE SET count = count + 1, last_asked = max(last_asked, excluded.last_asked),
             suspect = min(suspect, excluded.suspect)
           RETURNING count`,
          key,
          text,
          second,
          trusted ? 0 : 1,
        )!; // an upsert returns its row
        if (Number(counted.count) === 1) makeRoom(db.fast, key, asker, at, limit);
      });
    },
    async topQuestions(n) {
      const rows = prepared(
        db.fast,
        'SELECT text, count, last_asked FROM unanswered ORDER BY count DESC, last_asked DESC, key LIMIT ?',
      ).all(Math.max(0, Math.floor(n))) as { text: string; count: number; last_asked: number }[];
      return rows.map(
        (r): UnansweredQuestion => ({ text: r.text, count: Number(r.count), lastAsked: Number(r.last_asked) }),
      );
    },
  };
}
