/**
 * @module Sends one burst of HTTP requests from its own thread and posts back each answer's status, so the
 * burst's client work (hundreds of sockets opened and answers read at once) never delays the fake CRM and the
 * Upstash bridge that the main thread serves: a real CRM or Upstash does not share a CPU with the visitors.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { send } from './lib.ts';

/** One request of a burst: `send`'s options with the URL as a string (a worker's data is cloned; no agent). */
export type BurstRequest = { url: string } & Omit<Parameters<typeof send>[1], 'agent'>;

const requests = workerData as BurstRequest[];
const statuses = await Promise.all(requests.map(({ url, ...opts }) => send(new URL(url), opts).then((r) => r.status)));
parentPort!.postMessage(statuses);
