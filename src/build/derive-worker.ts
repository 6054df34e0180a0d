/** A derive worker thread (src/build/derive-pages.ts): derives the batches of HTML files it is sent. */
import { parentPort, workerData } from 'node:worker_threads';
import { errorText } from '../core/error-text.ts';
import { derivePageFile, type WorkerData, type WorkerReply, type WorkerRequest } from './derive-pages.ts';

const { distDir, cache } = workerData as WorkerData;
parentPort!.on('message', ({ id, files }: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply = { id, results: files.map((f) => derivePageFile(distDir, f, cache)) };
  } catch (e) {
    reply = { id, error: errorText(e) };
  }
  parentPort!.postMessage(reply);
});
