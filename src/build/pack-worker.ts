/** A pack worker thread (src/build/data-files.ts buildPacks): deflates the one pack of records it is given. */
import { parentPort, workerData } from 'node:worker_threads';
import { deflatePack, type EncodedRecords } from './pack.ts';

parentPort!.postMessage(deflatePack(workerData as EncodedRecords));
