/** A pack worker thread (src/build/data-files.ts buildPacks): builds the packs of the records it is given. */
import { parentPort, workerData } from 'node:worker_threads';
import { buildPacksOf } from './data-files.ts';

parentPort!.postMessage(buildPacksOf((workerData as { lists: string[][] }).lists));
