/** @module The embedded store's rate limits: the read budget's sliding window, the lead budget's sliding log. */
import type { DatabaseSync } from 'node:sqlite';
import { slidingWindowAllows, slidingWindowResult } from '../../core/rate-limit.ts';
import type { LimitPolicy, LimitResult, Store } from '../../core/ports.ts';
import type { SqliteContext } from './context.ts';
import { prepared, READ_WAIT_MS, row, write } from './transactions.ts';

/** One read-budget hit (this window's and the last one's counters), inside a transaction. */
function windowHit(fast: DatabaseSync, policy: LimitPolicy, client: string, now: number): LimitResult {
  const windowMs = policy.windowSeconds * 1000;
  const idx = Math.floor(now / windowMs);
  const count = (i: number) =>
    Number(
      row(fast, 'SELECT count FROM rate_window WHERE policy = ? AND client = ? AND idx = ?', policy.name, client, i)
        ?.count ?? 0,
    );
  const previous = count(idx - 1);
  const current = count(idx);
  const allowed = slidingWindowAllows(policy, previous, current, now);
  if (!allowed) return slidingWindowResult(policy, previous, current, now, false);
  prepared(
    fast,
    'INSERT INTO rate_window (policy, client, idx, count, until) VALUES (?, ?, ?, 1, ?) ON CONFLICT DO UPDATE SET count = count + 1',
  ).run(policy.name, client, idx, (idx + 2) * windowMs);
  return { ...slidingWindowResult(policy, previous, current + 1, now, true), unit: String(idx) };
}

/** One lead-budget hit (one row per unit still in the window), inside a transaction. */
function logHit(durable: DatabaseSync, policy: LimitPolicy, client: string, now: number): LimitResult {
  const windowMs = policy.windowSeconds * 1000;
  prepared(durable, 'DELETE FROM rate_log WHERE policy = ? AND client = ? AND at <= ?').run(
    policy.name,
    client,
    now - windowMs,
  );
  const used = Number(
    row(durable, 'SELECT count(*) AS n FROM rate_log WHERE policy = ? AND client = ?', policy.name, client)!.n,
  );
  let unit: string | undefined;
  if (used < policy.limit) {
    unit = String(
      prepared(durable, 'INSERT INTO rate_log (policy, client, at, until) VALUES (?, ?, ?, ?)').run(
        policy.name,
        client,
        now,
        now + windowMs,
      ).lastInsertRowid,
    );
  }
  const oldest = Number(
    row(durable, 'SELECT min(at) AS at FROM rate_log WHERE policy = ? AND client = ?', policy.name, client)?.at ?? now,
  );
  const taken = unit ? used + 1 : used;
  const result = {
    allowed: !!unit,
    limit: policy.limit,
    remaining: Math.max(0, policy.limit - taken),
    resetAt: oldest + windowMs,
  };
  return unit ? { ...result, unit } : result;
}

/** The store's `hit` and `refund`; `sweep` runs first at each hit. */
export function sqliteRateLimits(
  { db, lead, counts }: SqliteContext,
  sweep: (now: number) => void,
): Pick<Store, 'hit' | 'refund'> {
  let batch: { run: () => LimitResult; resolve: (r: LimitResult) => void; reject: (e: unknown) => void }[] = [];
  const commit = async () => {
    const hits = batch;
    batch = [];
    let results: LimitResult[];
    try {
      results = await write(db.fast, () => hits.map((h) => h.run()), READ_WAIT_MS);
    } catch (e) {
      for (const h of hits) h.reject(e);
      return;
    }
    for (const [i, h] of hits.entries()) h.resolve(results[i]!);
  };

  return {
    async hit(policy, client, now) {
      sweep(now);
      if (policy.algorithm === 'sliding-window') {
        // Group commit: the read-budget hits that arrive in one turn of the event loop share one
        // transaction (each still answered only after that commit).
        return new Promise<LimitResult>((resolve, reject) => {
          batch.push({ run: () => windowHit(db.fast, policy, client, now), resolve, reject });
          if (batch.length === 1) setImmediate(() => void commit());
        });
      }
      return lead(() => logHit(db.durable, policy, client, now));
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
  };
}
