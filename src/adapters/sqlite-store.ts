/**
 * @module The embedded store, the local default: one SQLite file (`node:sqlite`, built into Node 24) in
 * KARTAGE_VAR_DIR holding the rate-limit windows, the idempotency records, the lead outbox (with its
 * `quarantine` of unreadable entries and its `dead_letter` table of leads the CRM would not take, each with
 * whether sales were told of it and when its alert is next due), the local
 * lead sink and the count of questions the assistant could not answer (`unanswered`, with `unanswered_asker`:
 * the questions each asker, a daily hash of a client, counted that day, deleted once it ends). WAL mode, so the
 * server and `npm run leads:flush` (or any other process) read and write it at the same time;
 * `busy_timeout` makes one wait for the other's write instead of failing. Every change
 * is one transaction (`BEGIN IMMEDIATE`: the write lock is taken first, so two processes never both read
 * and then write on stale data). Lead-path changes (idempotency, the lead budget, the outbox, the lead
 * table) go through a connection with `synchronous=FULL`: committed means on disk before the answer. The
 * read budget goes through a second connection with `synchronous=NORMAL` (WAL): it survives a crashed or
 * killed process, not a power cut, which costs a client at most a few reads back; a metered read then
 * costs no disk flush. The unanswered questions go through the second connection too. Everything survives
 * a restart.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { slidingWindowAllows, slidingWindowResult } from '../core/rate-limit.ts';
import {
  ASKER_DAILY_QUESTIONS,
  ASKER_TRUSTED_QUESTIONS,
  DAY_MS,
  QUESTION_STALE_MS,
  UNANSWERED_LIMIT,
} from '../core/ask/unanswered.ts';
import { errorText } from '../core/error-text.ts';
import type {
  DeadLetter,
  IdempotencyRecord,
  LeadRecord,
  LeadSink,
  LimitPolicy,
  LimitResult,
  OutboxItem,
  Store,
  UnansweredQuestion,
} from '../core/ports.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS rate_window (policy TEXT, client TEXT, idx INTEGER, count INTEGER NOT NULL,
  until INTEGER NOT NULL, PRIMARY KEY (policy, client, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rate_log (unit INTEGER PRIMARY KEY AUTOINCREMENT, policy TEXT NOT NULL,
  client TEXT NOT NULL, at INTEGER NOT NULL, until INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS rate_log_client ON rate_log (policy, client, at);
CREATE TABLE IF NOT EXISTS idempotency (key TEXT PRIMARY KEY, record TEXT NOT NULL, until INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (id TEXT PRIMARY KEY, payload TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER NOT NULL DEFAULT 0, queue_order INTEGER NOT NULL, queued_at INTEGER NOT NULL, last_error TEXT);
CREATE INDEX IF NOT EXISTS outbox_order ON outbox (queue_order);
CREATE TABLE IF NOT EXISTS quarantine (n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT, payload TEXT NOT NULL,
  reason TEXT NOT NULL, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS dead_letter (n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
  payload TEXT NOT NULL, attempts INTEGER NOT NULL, reason TEXT NOT NULL, status INTEGER, answer TEXT,
  queued_at INTEGER NOT NULL, at INTEGER NOT NULL, announced INTEGER NOT NULL DEFAULT 0,
  alerts INTEGER NOT NULL DEFAULT 0, alert_after INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS leads (n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, record TEXT NOT NULL,
  at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS unanswered (key TEXT PRIMARY KEY, text TEXT NOT NULL, count INTEGER NOT NULL,
  last_asked INTEGER NOT NULL, suspect INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS unanswered_rank ON unanswered (count, last_asked);
CREATE TABLE IF NOT EXISTS unanswered_asker (asker TEXT NOT NULL, key TEXT NOT NULL, until INTEGER NOT NULL,
  PRIMARY KEY (asker, key)) WITHOUT ROWID;
`;

interface Database {
  file: string;
  /** synchronous=FULL: idempotency, lead budget, outbox, leads. */
  durable: DatabaseSync;
  /** synchronous=NORMAL: the read budget. */
  fast: DatabaseSync;
  /** The file's device and inode when opened: a file replaced or deleted under the server is noticed. */
  identity: string | undefined;
}

const open = new Map<string, Database>();

/**
 * How long one attempt waits for another process's write lock, blocking the event loop (`DatabaseSync` is
 * synchronous): short, so that a lock held elsewhere (`npm run leads:flush`, a backup) never stalls the pages
 * and reads of this instance. Longer waits are taken between attempts, off the event loop (see `write`).
 */
const BUSY_MS = 10;
/** How long a lead-path write keeps trying for the lock (the busy timeout it had before, now off the loop). */
export const LEAD_WAIT_MS = 5_000;
/** How long a read-budget hit or a count keeps trying; past it the caller falls back (per-instance counting). */
export const READ_WAIT_MS = 250;
/** How often committed pages are copied from the WAL into the main file (also on exit). */
const CHECKPOINT_EVERY_MS = 10_000;

function connect(file: string, synchronous: 'FULL' | 'NORMAL'): DatabaseSync {
  const db = new DatabaseSync(file, { timeout: BUSY_MS });
  db.exec(`PRAGMA busy_timeout = ${BUSY_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = ${synchronous};`);
  return db;
}

function identityOf(file: string): string | undefined {
  try {
    const s = statSync(file);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}

/** A log line on stderr (the embedded store is opened before, and apart from, the request log). */
const logLine = (event: string, fields: Record<string, unknown>) =>
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', event, ...fields })}\n`);

/**
 * What is wrong with an existing database file (`PRAGMA quick_check`, or the error opening it), or undefined.
 * A file another process keeps locked past `waitMs` is not damaged: that throws (`StoreLockedError`) instead, so
 * a live database full of leads is never moved aside for being busy.
 */
export function checkDatabase(file: string, waitMs = LEAD_WAIT_MS): string | undefined {
  if (!existsSync(file)) return undefined;
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file, { timeout: waitMs });
    const rows = db.prepare('PRAGMA quick_check').all() as { quick_check: string }[];
    const result = rows.map((r) => String(r.quick_check));
    return result.length === 1 && result[0] === 'ok' ? undefined : result.slice(0, 5).join('; ');
  } catch (e) {
    if (isBusy(e)) throw new StoreLockedError(file, waitMs);
    return errorText(e);
  } finally {
    try {
      db?.close();
    } catch {
      // Closing a connection to a broken file may fail too; the file is moved aside next.
    }
  }
}

/** The embedded database is held locked by another process: the server does not start on it, nor replace it. */
export class StoreLockedError extends Error {
  constructor(file: string, waitMs: number) {
    super(
      `The embedded database ${file} stayed locked by another process for ${waitMs} ms; it was left as it is ` +
        '(not moved aside). Stop the other process using it, or set KARTAGE_VAR_DIR to another folder, and start again.',
    );
    this.name = 'StoreLockedError';
  }
}

/**
 * A database that fails its check is moved aside with its WAL (`kartage.db.corrupt-<time>`, kept for a person
 * to recover from, never deleted) and the server starts on a fresh one: pages, reads and MCP never depend on it.
 */
function moveAside(file: string, problem: string): string {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  }
  logLine('store_corrupt_moved_aside', {
    file,
    movedTo: aside,
    problem: problem.slice(0, 500),
    note: 'the embedded database failed its check; a fresh one was created and the old one kept for recovery',
  });
  return aside;
}

/** Opens (once per process and file) the database, checked, creating its tables; imports a legacy outbox file. */
export function openDatabase(file: string): Database {
  let db = open.get(file);
  if (db) return db;
  mkdirSync(dirname(file), { recursive: true });
  const problem = checkDatabase(file);
  if (problem) moveAside(file, problem);
  const durable = connect(file, 'FULL');
  durable.exec(`PRAGMA busy_timeout = ${LEAD_WAIT_MS}`);
  transaction(durable, () => {
    durable.exec(SCHEMA);
    addColumns(durable);
  });
  db = { file, durable, fast: connect(file, 'NORMAL'), identity: identityOf(file) };
  importLegacyOutbox(db);
  durable.exec(`PRAGMA busy_timeout = ${BUSY_MS}`);
  open.set(file, db);
  watchDatabases();
  return db;
}

/**
 * Columns later versions added to a table an earlier version created: each added with its default. A dead letter
 * from before alerts were kept is taken as not yet announced (at worst sales hear of it twice, never not at all).
 */
const ADDED_COLUMNS: [table: string, column: string, definition: string][] = [
  ['dead_letter', 'announced', 'INTEGER NOT NULL DEFAULT 0'],
  ['dead_letter', 'alerts', 'INTEGER NOT NULL DEFAULT 0'],
  ['dead_letter', 'alert_after', 'INTEGER NOT NULL DEFAULT 0'],
  ['unanswered', 'suspect', 'INTEGER NOT NULL DEFAULT 0'],
];

function addColumns(db: DatabaseSync): void {
  for (const [table, column, definition] of ADDED_COLUMNS) {
    const has = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).some((c) => c.name === column);
    if (!has) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
  }
}

/** Copies committed pages from the WAL into the main file (PASSIVE: never waits for a lock); false if it could not. */
function checkpoint(db: Database, mode: 'PASSIVE' | 'TRUNCATE' = 'PASSIVE'): boolean {
  try {
    db.durable.exec(`PRAGMA wal_checkpoint(${mode})`);
    return true;
  } catch {
    return false;
  }
}

/** Closes every open database, checkpointed, so the main file alone holds every committed lead. */
export function closeDatabases(): void {
  for (const db of open.values()) {
    checkpoint(db, 'TRUNCATE');
    for (const c of [db.fast, db.durable]) {
      try {
        c.close();
      } catch {
        // Already closed.
      }
    }
  }
  open.clear();
}

let watching = false;
/** A checkpoint on a timer (not keeping the process alive) and a last one, with the files closed, on exit. */
function watchDatabases() {
  if (watching) return;
  watching = true;
  setInterval(() => {
    for (const db of open.values()) checkpoint(db);
  }, CHECKPOINT_EVERY_MS).unref();
  process.once('exit', closeDatabases);
}

/**
 * The database at `file` is still the one this process opened (not deleted, moved or replaced under it, when
 * writes would go to a file nobody will read again); reopened, checked, when it is not.
 */
function current(db: Database): Database {
  if (identityOf(db.file) === db.identity) return db;
  logLine('store_file_changed', { file: db.file, note: 'the database file was replaced or removed; reopening it' });
  for (const c of [db.fast, db.durable]) {
    try {
      c.close();
    } catch {
      // Closing the old file's connections is best effort.
    }
  }
  open.delete(db.file);
  const fresh = openDatabase(db.file);
  Object.assign(db, fresh);
  open.set(db.file, db);
  return db;
}

/**
 * A committed row read back through the other connection (its own view of the file, not the writer's cache),
 * from the file still at the path. A lead is acknowledged only when this finds it.
 */
function readBack(db: Database, sql: string, id: string): boolean {
  try {
    return prepared(db.fast, sql).get(id) !== undefined;
  } catch (e) {
    logLine('store_read_back_failed', { file: db.file, id, error: errorText(e) });
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The lock is held by another connection or process (SQLITE_BUSY, SQLITE_LOCKED). */
const isBusy = (e: unknown) => {
  const code = (e as { errcode?: number })?.errcode;
  return code === 5 || code === 6 || /database is (locked|busy)/.test(errorText(e));
};

/**
 * `transaction`, waiting up to `waitMs` for another process's write lock between short attempts, so the event
 * loop keeps serving meanwhile. Past the wait the error is thrown (the lead path answers 502, the read budget
 * falls back to this instance's own count).
 */
async function write<T>(db: DatabaseSync, fn: () => T, waitMs: number): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    try {
      return transaction(db, fn);
    } catch (e) {
      if (!isBusy(e) || Date.now() + pause > deadline) throw e;
    }
    await sleep(pause);
  }
}

const statements = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/**
 * A connection's prepared statement for `sql`, compiled once: preparing costs more than running these
 * one-row statements, and every metered read runs three of them.
 */
function prepared(db: DatabaseSync, sql: string): StatementSync {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = db.prepare(sql)));
  return statement;
}

/** Runs `fn` in one write transaction (the write lock first), committed before it returns. */
function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (e) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw e;
  }
}

/**
 * Earlier versions queued leads in `outbox.jsonl` next to the database. Its lines move into the outbox
 * table once; a line that is not a whole entry (a torn last line after a crash, a corrupt one) goes to
 * quarantine, never glued to the next. The file is then renamed `outbox.jsonl.imported`.
 */
function importLegacyOutbox(db: Database): void {
  const legacy = join(dirname(db.file), 'outbox.jsonl');
  let text: string;
  try {
    text = readFileSync(legacy, 'utf8');
  } catch {
    return;
  }
  const now = Date.now();
  transaction(db.durable, () => {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const id = deliveryIdOf(line);
      if (id) pushRow(db.durable, id, line, now);
      else
        prepared(db.durable, 'INSERT INTO quarantine (id, payload, reason, at) VALUES (NULL, ?, ?, ?)').run(
          line,
          'unreadable line in outbox.jsonl',
          now,
        );
    }
  });
  try {
    renameSync(legacy, `${legacy}.imported`);
  } catch {
    // Another process imported it at the same moment; the rows are keyed by delivery id, so nothing doubled.
  }
}

/** The delivery id of an outbox payload (`{record: {id}}`), or undefined when it is not a whole entry. */
export function deliveryIdOf(payload: string): string | undefined {
  try {
    const v = JSON.parse(payload) as { record?: { id?: unknown } };
    return typeof v?.record?.id === 'string' && v.record.id ? v.record.id : undefined;
  } catch {
    return undefined;
  }
}

function pushRow(db: DatabaseSync, id: string, payload: string, now: number) {
  prepared(
    db,
    `INSERT INTO outbox (id, payload, queue_order, queued_at)
     VALUES (?, ?, (SELECT coalesce(max(queue_order), 0) + 1 FROM outbox), ?) ON CONFLICT (id) DO NOTHING`,
  ).run(id, payload, now);
}

/** The key of an asker's row that marks it a flood for the rest of its day (no question key is empty). */
const FLOOD = '';

/** The columns a dead letter is read from. */
const LETTER = 'id, payload, attempts, reason, status, answer, queued_at, at, announced, alerts';

/** A `dead_letter` row as the port's `DeadLetter`. */
function letterOf(r: Record<string, SQLInputValue>): DeadLetter {
  return {
    id: String(r.id),
    payload: String(r.payload),
    attempts: Number(r.attempts),
    reason: String(r.reason),
    ...(r.status !== null ? { status: Number(r.status) } : {}),
    ...(r.answer !== null ? { answer: String(r.answer) } : {}),
    queuedAt: Number(r.queued_at),
    at: Number(r.at),
    announced: Number(r.announced) === 1,
    alerts: Number(r.alerts),
  };
}

export interface SqliteStoreOptions {
  /** The database file (default `<KARTAGE_VAR_DIR>/kartage.db`, chosen by composition-root.ts). */
  file: string;
  /** Clock for expiry of idempotency records and outbox leases. @default Date.now */
  now?: () => number;
  /** Most distinct unanswered questions kept (src/core/ports.ts `countQuestion`). @default UNANSWERED_LIMIT (5,000) */
  questionLimit?: number;
}

export function createSqliteStore(opts: SqliteStoreOptions): Store {
  const db = openDatabase(opts.file);
  const clock = opts.now ?? (() => Date.now());
  const questionLimit = opts.questionLimit ?? UNANSWERED_LIMIT;
  const get = (c: DatabaseSync, sql: string, ...args: SQLInputValue[]) =>
    prepared(c, sql).get(...args) as Record<string, SQLInputValue> | undefined;
  /** A lead-path write: on the file as it is now, waiting up to LEAD_WAIT_MS for the lock, off the event loop. */
  const lead = <T>(fn: () => T) => write(current(db).durable, fn, LEAD_WAIT_MS);
  /** A read-budget or counting write: a short wait, then the caller falls back. */
  const counts = <T>(fn: () => T) => write(db.fast, fn, READ_WAIT_MS);
  let lastSweep = 0;
  let lastAskerSweep = 0;
  const sweep = (now: number) => {
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    // Housekeeping: with the lock held elsewhere it waits for the next sweep, never for the lock.
    try {
      transaction(db.durable, () => prepared(db.durable, 'DELETE FROM idempotency WHERE until <= ?').run(now));
      // Rows that no longer count: a window once the next one has ended, a log entry once its window has.
      transaction(db.fast, () => prepared(db.fast, 'DELETE FROM rate_window WHERE until <= ?').run(now));
      transaction(db.durable, () => prepared(db.durable, 'DELETE FROM rate_log WHERE until <= ?').run(now));
    } catch (e) {
      if (!isBusy(e)) throw e;
      lastSweep = 0;
    }
  };

  /** One read-budget hit (sliding window: this window's and the last one's counters), inside a transaction. */
  const slidingHit = (policy: LimitPolicy, client: string, now: number, windowMs: number): LimitResult => {
    const idx = Math.floor(now / windowMs);
    const count = (i: number) =>
      Number(
        get(
          db.fast,
          'SELECT count FROM rate_window WHERE policy = ? AND client = ? AND idx = ?',
          policy.name,
          client,
          i,
        )?.count ?? 0,
      );
    const previous = count(idx - 1);
    const current = count(idx);
    const allowed = slidingWindowAllows(policy, previous, current, now);
    if (!allowed) return slidingWindowResult(policy, previous, current, now, false);
    prepared(
      db.fast,
      'INSERT INTO rate_window (policy, client, idx, count, until) VALUES (?, ?, ?, 1, ?) ON CONFLICT DO UPDATE SET count = count + 1',
    ).run(policy.name, client, idx, (idx + 2) * windowMs);
    return { ...slidingWindowResult(policy, previous, current + 1, now, true), unit: String(idx) };
  };
  let readBatch: { run: () => LimitResult; resolve: (r: LimitResult) => void; reject: (e: unknown) => void }[] = [];
  const commitReads = async () => {
    const batch = readBatch;
    readBatch = [];
    let results: LimitResult[];
    try {
      results = await write(db.fast, () => batch.map((h) => h.run()), READ_WAIT_MS);
    } catch (e) {
      for (const h of batch) h.reject(e);
      return;
    }
    for (const [i, h] of batch.entries()) h.resolve(results[i]!);
  };

  return {
    async hit(policy, client, now): Promise<LimitResult> {
      sweep(now);
      const windowMs = policy.windowSeconds * 1000;
      if (policy.algorithm === 'sliding-window') {
        // Group commit: the read-budget hits that arrive in one turn of the event loop share one
        // transaction (each still answered only after that commit).
        return new Promise<LimitResult>((resolve, reject) => {
          readBatch.push({ run: () => slidingHit(policy, client, now, windowMs), resolve, reject });
          if (readBatch.length === 1) setImmediate(() => void commitReads());
        });
      }
      return lead(() => {
        prepared(db.durable, 'DELETE FROM rate_log WHERE policy = ? AND client = ? AND at <= ?').run(
          policy.name,
          client,
          now - windowMs,
        );
        const used = Number(
          get(db.durable, 'SELECT count(*) AS n FROM rate_log WHERE policy = ? AND client = ?', policy.name, client)!.n,
        );
        let unit: string | undefined;
        if (used < policy.limit) {
          unit = String(
            prepared(db.durable, 'INSERT INTO rate_log (policy, client, at, until) VALUES (?, ?, ?, ?)').run(
              policy.name,
              client,
              now,
              now + windowMs,
            ).lastInsertRowid,
          );
        }
        const oldest = Number(
          get(db.durable, 'SELECT min(at) AS at FROM rate_log WHERE policy = ? AND client = ?', policy.name, client)
            ?.at ?? now,
        );
        const taken = unit ? used + 1 : used;
        const result = {
          allowed: !!unit,
          limit: policy.limit,
          remaining: Math.max(0, policy.limit - taken),
          resetAt: oldest + windowMs,
        };
        return unit ? { ...result, unit } : result;
      });
    },
    async refund(policy, client, result) {
      if (!result.allowed || !result.unit) return;
      if (policy.algorithm === 'sliding-window') {
        await counts(() =>
          prepared(
            db.fast,
            'UPDATE rate_window SET count = max(0, count - 1) WHERE policy = ? AND client = ? AND idx = ?',
          ).run(policy.name, client, Number(result.unit)),
        );
        return;
      }
      await lead(() =>
        prepared(db.durable, 'DELETE FROM rate_log WHERE unit = ? AND policy = ? AND client = ?').run(
          Number(result.unit),
          policy.name,
          client,
        ),
      );
    },

    async claim(key, fingerprint, claimSeconds) {
      const now = clock();
      return lead(() => {
        const held = get(db.durable, 'SELECT record FROM idempotency WHERE key = ? AND until > ?', key, now);
        if (held) return JSON.parse(String(held.record)) as IdempotencyRecord;
        const pending: IdempotencyRecord = { state: 'pending', fingerprint };
        prepared(db.durable, 'INSERT OR REPLACE INTO idempotency (key, record, until) VALUES (?, ?, ?)').run(
          key,
          JSON.stringify(pending),
          now + claimSeconds * 1000,
        );
        return undefined;
      });
    },
    async complete(key, record, ttlSeconds) {
      await lead(() =>
        prepared(db.durable, 'INSERT OR REPLACE INTO idempotency (key, record, until) VALUES (?, ?, ?)').run(
          key,
          JSON.stringify(record),
          clock() + ttlSeconds * 1000,
        ),
      );
    },
    async release(key) {
      await lead(() =>
        prepared(
          db.durable,
          `DELETE FROM idempotency WHERE key = ? AND json_extract(record, '$.state') = 'pending'`,
        ).run(key),
      );
    },

    async outboxPush(id, payload) {
      await lead(() => pushRow(db.durable, id, payload, clock()));
      // Acknowledged only once another connection reads it back from the file as it is now.
      if (!readBack(current(db), 'SELECT 1 FROM outbox WHERE id = ?', id))
        throw new Error(`the outbox entry ${id} was committed but cannot be read back`);
      // Leads are few: each is copied into the main file at once, so a damaged WAL cannot take it.
      checkpoint(db);
    },
    async outboxClaim(max, leaseSeconds) {
      const now = clock();
      return lead(() => {
        const rows = prepared(
          db.durable,
          'SELECT id FROM outbox WHERE lease_until <= ? ORDER BY queue_order LIMIT ?',
        ).all(now, max) as { id: string }[];
        const lease = prepared(
          db.durable,
          `UPDATE outbox SET lease_until = ?, attempts = attempts + 1 WHERE id = ?
           RETURNING id, payload, attempts, queued_at`,
        );
        return rows.map((r) => {
          const row = lease.get(now + leaseSeconds * 1000, r.id) as Record<string, SQLInputValue>;
          return {
            id: String(row.id),
            payload: String(row.payload),
            attempts: Number(row.attempts),
            queuedAt: Number(row.queued_at),
          } satisfies OutboxItem;
        });
      });
    },
    async outboxAck(id) {
      await lead(() => prepared(db.durable, 'DELETE FROM outbox WHERE id = ?').run(id));
    },
    async outboxRetry(id, error, delayMs = 0) {
      // The backoff is a lease nobody holds: no flusher claims the entry before it ends.
      const free = delayMs > 0 ? clock() + delayMs : 0;
      await lead(() =>
        prepared(
          db.durable,
          `UPDATE outbox SET lease_until = ?, last_error = ?, queue_order = (SELECT max(queue_order) + 1 FROM outbox)
           WHERE id = ?`,
        ).run(free, error.slice(0, 500), id),
      );
    },
    async outboxRelease(id) {
      // Its queue_order is kept: still among the oldest.
      await lead(() =>
        prepared(db.durable, 'UPDATE outbox SET lease_until = 0, attempts = max(attempts - 1, 0) WHERE id = ?').run(id),
      );
    },
    async outboxQuarantine(id, reason) {
      await lead(() => {
        const row = get(db.durable, 'SELECT payload FROM outbox WHERE id = ?', id);
        if (!row) return;
        prepared(db.durable, 'INSERT INTO quarantine (id, payload, reason, at) VALUES (?, ?, ?, ?)').run(
          id,
          String(row.payload),
          reason,
          clock(),
        );
        prepared(db.durable, 'DELETE FROM outbox WHERE id = ?').run(id);
      });
    },
    outboxSize: async () => Number(get(db.durable, 'SELECT count(*) AS n FROM outbox')!.n),
    quarantineSize: async () => Number(get(db.durable, 'SELECT count(*) AS n FROM quarantine')!.n),
    async outboxDeadLetter(id, why) {
      const at = clock();
      const moved = await lead(() => {
        const row = get(db.durable, 'SELECT payload, attempts, queued_at FROM outbox WHERE id = ?', id);
        if (!row) return false;
        prepared(
          db.durable,
          `INSERT OR REPLACE INTO dead_letter (id, payload, attempts, reason, status, answer, queued_at, at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          id,
          String(row.payload),
          Number(row.attempts),
          why.reason.slice(0, 1000),
          why.status ?? null,
          why.answer?.slice(0, 500) ?? null,
          Number(row.queued_at),
          at,
        );
        prepared(db.durable, 'DELETE FROM outbox WHERE id = ?').run(id);
        return true;
      });
      // A dead letter holds a lead like the outbox: copied into the main file at once.
      if (moved) checkpoint(db);
      return moved;
    },
    async deadLetters() {
      const rows = prepared(db.durable, `SELECT ${LETTER} FROM dead_letter ORDER BY n`).all();
      return rows.map(letterOf);
    },
    async deadLetterAlertClaim(max, leaseSeconds) {
      const now = clock();
      return lead(() =>
        prepared(
          db.durable,
          `UPDATE dead_letter SET alerts = alerts + 1, alert_after = ? WHERE n IN
           (SELECT n FROM dead_letter WHERE announced = 0 AND alert_after <= ? ORDER BY n LIMIT ?)
           RETURNING n, ${LETTER}`,
        )
          .all(now + leaseSeconds * 1000, now, Math.max(0, max))
          .sort((a, b) => Number(a.n) - Number(b.n))
          .map(letterOf),
      );
    },
    async deadLetterAnnounced(id) {
      await lead(() => prepared(db.durable, 'UPDATE dead_letter SET announced = 1 WHERE id = ?').run(id));
    },
    async deadLetterAlertRetry(id, delayMs) {
      const after = clock() + Math.max(0, delayMs);
      await lead(() =>
        prepared(db.durable, 'UPDATE dead_letter SET alert_after = ? WHERE id = ? AND announced = 0').run(after, id),
      );
    },
    deadLetterSize: async () => Number(get(db.durable, 'SELECT count(*) AS n FROM dead_letter')!.n),
    async deadLetterRequeue(id) {
      const now = clock();
      const moved = await lead(() => {
        const row = get(db.durable, 'DELETE FROM dead_letter WHERE id = ? RETURNING payload', id);
        if (!row) return false;
        pushRow(db.durable, id, String(row.payload), now);
        return true;
      });
      if (moved) checkpoint(db);
      return moved;
    },

    async countQuestion(key, text, at, asker) {
      const second = Math.floor(at / 1000) * 1000;
      await counts(() => {
        let trusted = true;
        if (asker !== undefined) {
          if (at - lastAskerSweep >= 60_000) {
            lastAskerSweep = at;
            prepared(db.fast, 'DELETE FROM unanswered_asker WHERE until <= ?').run(at);
          }
          const asked = (
            prepared(db.fast, 'SELECT key FROM unanswered_asker WHERE asker = ? AND until > ?').all(asker, at) as {
              key: string;
            }[]
          ).map((r) => r.key);
          // '' marks a flood (no question key is empty).
          if (asked.includes(FLOOD) || asked.includes(key)) return;
          const until = (Math.floor(at / DAY_MS) + 1) * DAY_MS;
          if (asked.length >= ASKER_DAILY_QUESTIONS) {
            // A flood: what it counted is withdrawn, and nothing more of its day counts.
            for (const k of asked) {
              prepared(db.fast, 'UPDATE unanswered SET count = count - 1 WHERE key = ?').run(k);
              prepared(db.fast, 'DELETE FROM unanswered WHERE key = ? AND count <= 0').run(k);
            }
            prepared(db.fast, 'DELETE FROM unanswered_asker WHERE asker = ?').run(asker);
            prepared(db.fast, 'INSERT INTO unanswered_asker (asker, key, until) VALUES (?, ?, ?)').run(
              asker,
              FLOOD,
              until,
            );
            return;
          }
          trusted = asked.length < ASKER_TRUSTED_QUESTIONS;
          prepared(db.fast, 'INSERT OR REPLACE INTO unanswered_asker (asker, key, until) VALUES (?, ?, ?)').run(
            asker,
            key,
            until,
          );
        }
        const row = get(
          db.fast,
          `INSERT INTO unanswered (key, text, count, last_asked, suspect) VALUES (?, ?, 1, ?, ?)
           ON CONFLICT (key) DO UPDATE SET count = count + 1, last_asked = max(last_asked, excluded.last_asked),
             suspect = min(suspect, excluded.suspect)
           RETURNING count`,
          key,
          text,
          second,
          trusted ? 0 : 1,
        );
        if (Number(row?.count) !== 1) return;
        // A new question: past the bound, stale questions make room first, then flood-shaped ones; never a
        // fresh visitor's question, so with none of those the newcomer itself is not kept.
        const excess = Number(get(db.fast, 'SELECT count(*) AS n FROM unanswered')!.n) - questionLimit;
        if (excess <= 0) return;
        const stale = Math.floor((at - QUESTION_STALE_MS) / 1000) * 1000;
        const gone = prepared(
          db.fast,
          `DELETE FROM unanswered WHERE key IN
           (SELECT key FROM unanswered WHERE key != ? AND (last_asked < ? OR suspect = 1)
            ORDER BY last_asked >= ?, CASE WHEN last_asked < ? THEN last_asked ELSE count END, last_asked, key
            LIMIT ?)`,
        ).run(key, stale, stale, stale, excess).changes;
        if (Number(gone) >= excess) return;
        prepared(db.fast, 'DELETE FROM unanswered WHERE key = ?').run(key);
        if (asker !== undefined)
          prepared(db.fast, 'DELETE FROM unanswered_asker WHERE asker = ? AND key = ?').run(asker, key);
      });
    },
    async topQuestions(limit) {
      const rows = prepared(
        db.fast,
        'SELECT text, count, last_asked FROM unanswered ORDER BY count DESC, last_asked DESC, key LIMIT ?',
      ).all(Math.max(0, Math.floor(limit))) as { text: string; count: number; last_asked: number }[];
      return rows.map(
        (r): UnansweredQuestion => ({ text: r.text, count: Number(r.count), lastAsked: Number(r.last_asked) }),
      );
    },
    describe: () => `embedded store (SQLite ${opts.file})`,
  };
}

/**
 * The local lead sink: the `leads` table of the same database, one row per lead, committed with
 * synchronous=FULL before `deliver` resolves. A lead delivered twice (a flush retry) is kept once: the
 * delivery id is unique. `npm run leads:export` writes the table as JSON lines.
 */
export function createSqliteSink(file: string): LeadSink {
  return {
    name: `local lead table in ${file}`,
    async deliver(record) {
      const db = current(openDatabase(file));
      await write(
        db.durable,
        () =>
          prepared(db.durable, 'INSERT INTO leads (id, record, at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING').run(
            record.id,
            JSON.stringify(record),
            Date.now(),
          ),
        LEAD_WAIT_MS,
      );
      if (!readBack(current(db), 'SELECT 1 FROM leads WHERE id = ?', record.id))
        throw new Error(`the lead ${record.id} was committed but cannot be read back`);
      checkpoint(db);
    },
  };
}

/**
 * `fn` on the durable connection with the long busy timeout: for the commands and tests that read the file
 * (export, backup) while a server writes it; they serve no requests, so they may block while they wait.
 */
function patiently<T>(file: string, fn: (durable: DatabaseSync) => T): T {
  const { durable } = openDatabase(file);
  durable.exec(`PRAGMA busy_timeout = ${LEAD_WAIT_MS}`);
  try {
    return fn(durable);
  } finally {
    durable.exec(`PRAGMA busy_timeout = ${BUSY_MS}`);
  }
}

/** Every lead in the local lead table, oldest first. */
export function readLeads(file: string): LeadRecord[] {
  return patiently(file, (durable) =>
    (prepared(durable, 'SELECT record FROM leads ORDER BY n').all() as { record: string }[]).map(
      (r) => JSON.parse(r.record) as LeadRecord,
    ),
  );
}

/** What sits in quarantine: entries that could not be read, with the reason, for a person to look at. */
export function readQuarantine(file: string): { id: string | null; payload: string; reason: string; at: number }[] {
  return patiently(
    file,
    (durable) =>
      prepared(durable, 'SELECT id, payload, reason, at FROM quarantine ORDER BY n').all() as {
        id: string | null;
        payload: string;
        reason: string;
        at: number;
      }[],
  );
}

/**
 * A consistent copy of the database at `target` (`VACUUM INTO`: one read transaction, so leads committed while
 * it runs are either in the copy whole or not at all; the WAL's committed pages included). Refuses to overwrite.
 */
export function backupDatabase(file: string, target: string): { leads: number; outbox: number } {
  if (existsSync(target)) throw new Error(`${target} exists; the backup never overwrites a file`);
  patiently(file, (durable) => prepared(durable, 'VACUUM INTO ?').run(target));
  const copy = new DatabaseSync(target, { readOnly: true });
  try {
    const count = (table: string) =>
      Number((copy.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
    return { leads: count('leads'), outbox: count('outbox') };
  } finally {
    copy.close();
  }
}
