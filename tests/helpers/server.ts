/** Starts the real local server on a free loopback port over the current build. */
import { startServer, PROJECT_ROOT, type RunningServer } from '../../server/main.ts';

export async function startTestServer(): Promise<RunningServer> {
  const lines: string[] = [];
  const s = await startServer({ host: '127.0.0.1', port: 0, root: PROJECT_ROOT, log: (l) => lines.push(l) });
  return Object.assign(s, { logs: lines });
}

export { PROJECT_ROOT };
