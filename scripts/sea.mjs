// `npm run sea` (after scripts/build.mjs): dist/rt, one executable that runs rt where there is no
// Node. It is Node's own executable (this very one, process.execPath) with a Single Executable
// Application blob injected: scripts/sea-main.cjs as its main script, which runs dist/rt.cjs
// with its code cache, both assets, as bin/rt.cjs does from dist/; and the bundle's sidecars
// (lang.cjs, the grammars, typescript.cjs, mcp.cjs) as assets too, which scripts/sidecars.mjs
// reads from there. The code cache is only valid for the Node that made it (the build's sample
// run), so nothing is cross-built: the executable is for this OS, this architecture and a C
// library like this one.
//
// Linux is tested. macOS and Windows follow Node's documentation (codesign, a Mach-O segment
// name; an .exe) but were never run.

import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const started = performance.now();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const platform = process.platform;
const exe = platform === 'win32' ? '.exe' : '';
const output = path.join(dist, `rt${exe}`);
// Made under another name and renamed once it runs: a failed build leaves no executable at all
// (the old one is removed first), never a copy of Node or one of another build.
const making = path.join(dist, `rt-making${exe}`);
// The blob and its configuration are made in a folder of their own, removed at the end.
const work = mkdtempSync(path.join(tmpdir(), 'rt-sea-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
process.on('exit', () => rmSync(making, { force: true }));
rmSync(output, { force: true });
const blob = path.join(work, 'rt.blob');
const seaConfig = path.join(work, 'sea-config.json');
// The sentinel Node's executable carries, whose last character the injection turns from 0 to 1.
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Ends the build with a message and exit status 1. */
function fail(message) {
  console.error(`sea: ${message}`);
  process.exit(1);
}

/**
 * postject's warnings on ELF, one for each of some 250 notes of Node's executable it cannot name:
 * harmless, and left out of what a failed step shows.
 */
const NOTE_WARNING = /^warning: Can't find string offset for section name '\.note(?:\.\d+)?'\n/gm;

/** Runs a command, its output kept; a failure ends the build with that output. */
function step(what, command, args) {
  const r = spawnSync(command, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error || r.status !== 0) {
    const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.replace(NOTE_WARNING, '');
    fail(
      `${what} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`}): ${command} ${args.join(' ')}\n${output}`,
    );
  }
}

/** Whether a command is on PATH. */
function has(command) {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).error === undefined;
}

if (!['linux', 'darwin', 'win32'].includes(platform))
  fail(`Node makes single executables on Linux, macOS and Windows only, not on ${platform}: run rt with Node (npx rt)`);
let sea;
try {
  sea = createRequire(import.meta.url)('node:sea');
} catch {
  sea = undefined;
}
if (typeof sea?.getAsset !== 'function')
  fail(`this Node (${process.version}) has no single-executable assets: build with Node 20.12 or later`);
for (const file of ['rt.cjs', 'rt.cjs.cache', 'lang.cjs', 'typescript.cjs', 'mcp.cjs', 'grammars']) {
  if (!existsSync(path.join(dist, file)))
    fail(`dist/${file} is missing: run npm run sea (which builds first), not node scripts/sea.mjs alone`);
}
// A Node built without single-executable support (some distributions' builds) has no fuse, and
// postject would fail with a message that does not say so.
if (!readFileSync(process.execPath).includes(`${FUSE}:0`))
  fail(
    `${process.execPath} (Node ${process.version}) was built without single-executable support: use a build ` +
      `from nodejs.org`,
  );

// The bundle and its cache under the names sea-main.cjs asks for, and every sidecar under the
// name scripts/sidecars.mjs asks for: its path under dist/. The grammars' licences go in with
// them.
const assets = {
  'rt.cjs': 'rt.cjs',
  'rt.cjs.cache': 'rt.cjs.cache',
  'lang.cjs': 'lang.cjs',
  'typescript.cjs': 'typescript.cjs',
  'mcp.cjs': 'mcp.cjs',
};
for (const file of readdirSync(path.join(dist, 'grammars')).sort())
  assets[`grammars/${file}`] = path.join('grammars', file);
writeFileSync(
  seaConfig,
  `${JSON.stringify(
    {
      main: path.join(root, 'scripts', 'sea-main.cjs'),
      output: blob,
      disableExperimentalSEAWarning: true,
      // Node's code cache would be of sea-main.cjs, 20 lines: the bundle's comes with it.
      useCodeCache: false,
      assets: Object.fromEntries(Object.entries(assets).map(([name, file]) => [name, path.join(dist, file)])),
    },
    null,
    2,
  )}\n`,
);
step('making the blob', process.execPath, ['--experimental-sea-config', seaConfig]);

copyFileSync(process.execPath, making);
chmodSync(making, 0o755);
let stripped = false;
if (platform === 'linux' && has('strip')) {
  // Node's symbols are of no use to rt's users: 12 MB less, and it runs the same.
  step('strip', 'strip', [making]);
  stripped = true;
}
if (platform === 'darwin') step('removing the signature', 'codesign', ['--remove-signature', making]);

// postject's output (its progress, the warnings above) is shown only if the injection fails.
const postject = path.join(
  path.dirname(createRequire(import.meta.url).resolve('postject/package.json')),
  'dist',
  'cli.js',
);
const postjectArgs = [postject, making, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE];
if (platform === 'darwin') postjectArgs.push('--macho-segment-name', 'NODE_SEA');
step('postject', process.execPath, postjectArgs);
if (platform === 'darwin') step('signing', 'codesign', ['--sign', '-', making]);

// The smoke check: the executable runs and is this build of rt.
const ran = spawnSync(making, ['--version'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
if (ran.error || ran.status !== 0 || ran.stdout !== `${version}\n`) {
  fail(
    `the executable made, run with --version, did not print ${version} ` +
      `(${ran.error?.message ?? `exit ${ran.status}`}):\n${ran.stdout}${ran.stderr}`,
  );
}
renameSync(making, output);
const size = (statSync(output).size / 1e6).toFixed(1);
const untested = platform === 'linux' ? '' : ` (untested on ${platform})`;
console.log(
  `sea: ${path.relative(root, output)}, ${size} ` +
    `MB${stripped ? ', stripped' : ''}, ${((performance.now() - started) / 1000).toFixed(1)} s${untested}: ` +
    `--version ${ran.stdout.trim()}`,
);
