/**
 * `npm run leads:requeue -- --all` or `npm run leads:requeue -- ID...`: once the CRM is fixed, moves dead
 * letters (all, or those with the given delivery ids) back into the lead outbox of the configured store, at the
 * back of the queue, with no attempts; the next flush (`npm run leads:flush`, or the cron within ten minutes)
 * delivers them. Each dead letter is re-queued exactly once, even with two of these running at once: a second
 * request for the same id finds nothing. Exit code: 0 all re-queued; 1 an id was not in the dead letters;
 * 2 no argument.
 */
import { parseConfig } from '../src/config.ts';
import { createStore } from '../src/adapters/composition-root.ts';

const args = process.argv.slice(2);
if (!args.length) {
  console.error('usage: npm run leads:requeue -- --all | ID...   (see npm run leads:export -- --dead-letters)');
  process.exitCode = 2;
} else {
  const store = createStore(parseConfig(process.env).store);
  const ids = args.includes('--all') ? (await store.deadLetters()).map((l) => l.id) : args;
  let moved = 0;
  for (const id of ids) {
    if (await store.deadLetterRequeue(id)) {
      moved++;
      console.log(`re-queued ${id}`);
    } else console.error(`${id}: not in the dead letters (already re-queued, or a wrong id)`);
  }
  console.log(
    `re-queued ${moved} of ${ids.length} dead letter(s) into ${store.describe()}; ` +
      `${await store.deadLetterSize()} left in the dead letters` +
      (moved ? '; npm run leads:flush delivers them now (the cron within ten minutes)' : ''),
  );
  process.exitCode = moved === ids.length ? 0 : 1;
}
