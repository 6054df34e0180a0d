/** `npm start`: build when needed (see build-check.ts), then serve. */
import { ensureBuild } from './build-check.ts';
import { main } from './main.ts';

ensureBuild();
await main();
