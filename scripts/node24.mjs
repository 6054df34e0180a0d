#!/usr/bin/env node
/**
 * Runs a project script on Node 24 whatever Node started it (plain JavaScript, so any Node from 18 on can
 * run this file). The Node used, in order: the one running this file when it is 24; `.tools/` when it
 * holds Node 24; else Node 24 installed from the npm registry into `.tools/` (the `node` package, about
 * 30 MB, once). Then it runs the script with it, Node 24's folder first on PATH so every `node` below is 24.
 *
 *   node scripts/node24.mjs server/start.ts [args]   a script file
 *   node scripts/node24.mjs --npm test:steps         an npm script (with npm's own CLI, on Node 24)
 *   node scripts/node24.mjs --path                   prints the Node 24 binary (.ci/run uses it)
 *
 * Where nothing can be installed (no network, no npm), one line says what to do instead.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const NEED = 24;
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = join(ROOT, '.tools');
const TOOLS_NODE = join(TOOLS, 'node_modules', '.bin', process.platform === 'win32' ? 'node.cmd' : 'node');

const majorOf = (bin) => {
  const r = spawnSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.trim().split('.')[0]) : 0;
};

/** npm's own CLI script when this runs under npm, else the `npm` command. */
function npmCommand() {
  const cli = process.env.npm_execpath;
  return cli && /\.(c|m)?js$/.test(cli) ? [process.execPath, [cli]] : ['npm', []];
}

function install() {
  console.error(
    `Node ${NEED} is needed and this machine has ${process.version}: ` +
      `installing Node ${NEED} from the npm registry into .tools/ (once)…`,
  );
  mkdirSync(TOOLS, { recursive: true });
  // Its own package.json, so npm does not walk up and install into the project instead.
  const manifest = join(TOOLS, 'package.json');
  if (!existsSync(manifest)) writeFileSync(manifest, '{"name":"kartage-tools","private":true}\n');
  const [cmd, pre] = npmCommand();
  const env = { ...process.env };
  // npm on some machines has `nodedir` set to the system Node's headers; nothing here is built against them.
  delete env.npm_config_nodedir;
  delete env.NPM_CONFIG_NODEDIR;
  const flags = ['--no-save', '--no-audit', '--no-fund', '--loglevel=error'];
  const args = [...pre, 'install', '--prefix', TOOLS, ...flags, `node@${NEED}`];
  const r = spawnSync(cmd, args, { cwd: TOOLS, env, stdio: ['ignore', 2, 2] });
  return r.status === 0 && majorOf(TOOLS_NODE) === NEED;
}

/** The Node 24 binary, installing it when needed; exits with one line when there is none to be had. */
function node24() {
  if (Number(process.versions.node.split('.')[0]) === NEED) return process.execPath;
  if (existsSync(TOOLS_NODE) && majorOf(TOOLS_NODE) === NEED) return TOOLS_NODE;
  if (install()) return TOOLS_NODE;
  console.error(
    `This project needs Node ${NEED} (found ${process.version}) and could not install it from the npm registry: ` +
      `install Node ${NEED} (https://nodejs.org) and run the command again.`,
  );
  process.exit(1);
}

/** Runs `cmd args` to its end, passing Ctrl+C and termination on; exits with its status. */
function run(bin, cmd, args) {
  const sep = process.platform === 'win32' ? ';' : ':';
  const env = { ...process.env, PATH: `${dirname(bin)}${sep}${process.env.PATH ?? ''}` };
  const child = spawn(cmd, args, { stdio: 'inherit', env });
  // The terminal sends Ctrl+C to the whole process group: the child gets it too; this process waits.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
  child.on('error', (e) => {
    console.error(`could not run ${cmd}: ${e.message}`);
    process.exit(1);
  });
}

const [first, ...rest] = process.argv.slice(2);
if (!first) {
  console.error('usage: node scripts/node24.mjs <script.ts> [args] | --npm <npm script> [args] | --path');
  process.exit(2);
}
const bin = node24();
if (first === '--path') {
  console.log(bin);
} else if (first === '--npm') {
  const [, pre] = npmCommand();
  const cli = pre[0];
  if (cli) run(bin, bin, [cli, 'run', ...rest]);
  else run(bin, 'npm', ['run', ...rest]);
} else {
  run(bin, bin, [first, ...rest]);
}
