// Runs the built binary (bin/rt.cjs → dist/rt.cjs, or the single executable dist/rt) in
// temporary directories, with a scrubbed environment, and returns stdout, stderr and the exit
// status together.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';

export const RT_BIN = path.resolve(__dirname, '../../bin/rt.cjs');

export interface RunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number | null;
  readonly stdoutBytes: Buffer;
}

export interface RunOptions {
  readonly cwd: string;
  readonly input?: string | Buffer;
  readonly env?: Record<string, string | undefined>;
  /** Run as this user and group (only possible when the tests run as root). */
  readonly uid?: number;
  readonly gid?: number;
  /** Another build of rt to run (its bin/rt.cjs), e.g. a copy with a damaged part. */
  readonly bin?: string;
  /** An executable to run instead of Node with a bin/rt.cjs: the single executable (dist/rt). */
  readonly exe?: string;
}

/** A clean environment: nothing from the developer's shell changes rt's behaviour. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8' };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

export function rt(args: readonly string[], options: RunOptions): RunResult {
  const [command, argv] = options.exe ? [options.exe, args] : [process.execPath, [options.bin ?? RT_BIN, ...args]];
  const result = spawnSync(command, argv, {
    cwd: options.cwd,
    input: options.input ?? '',
    env: cleanEnv(options.env),
    maxBuffer: 512 * 1024 * 1024,
    // A hung rt (reading a FIFO, waiting on a lock) must fail the test, not block the worker.
    timeout: 300_000,
    killSignal: 'SIGKILL',
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {}),
  });
  if (result.error) throw new Error(`rt ${args.join(' ')}: ${result.error.message}`);
  return {
    stdout: result.stdout.toString('utf8'),
    stderr: result.stderr.toString('utf8'),
    status: result.status,
    stdoutBytes: result.stdout,
  };
}

/** Describes a run for assertion messages: command, cwd, stdout and stderr. */
export function describeRun(args: readonly string[], cwd: string, r: RunResult): string {
  return `$ rt ${args.join(' ')}\n(cwd ${cwd})\nexit ${r.status}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
}

// ---------------------------------------------------------------------------------------------
// Temporary directories

const created: string[] = [];

/**
 * A fresh temporary directory (real path, so it compares equal to what rt prints). Refuses to
 * work when an ancestor of the temporary folder holds `.git` or `.rt`: rt would take that
 * ancestor as its root and every test about roots would be meaningless.
 */
export function tempDir(prefix = 'rt-e2e-'): string {
  const base = fs.realpathSync(os.tmpdir());
  for (let dir = base; ; dir = path.dirname(dir)) {
    for (const marker of ['.git', '.rt']) {
      if (fs.existsSync(path.join(dir, marker))) {
        throw new Error(
          `${path.join(dir, marker)} exists: rt would take ${dir} as the root of every temporary directory; ` +
            `remove it or set TMPDIR`,
        );
      }
    }
    if (path.dirname(dir) === dir) break;
  }
  const dir = fs.mkdtempSync(path.join(base, prefix));
  created.push(dir);
  return dir;
}

/** A temporary git work tree. */
export function tempRepo(): string {
  const dir = tempDir('rt-repo-');
  const r = spawnSync('git', ['init', '-q', dir]);
  if (r.status !== 0) throw new Error(`git init failed: ${r.stderr}`);
  return dir;
}

/** A new git repository holding `files` (path from its top → content). */
export function repoWith(files: Record<string, string | Buffer>): string {
  const dir = tempRepo();
  for (const [rel, content] of Object.entries(files)) write(dir, rel, content);
  return dir;
}

/** Removes every temporary directory made so far (call from afterAll). */
export function cleanup(): void {
  for (const dir of created.splice(0)) {
    try {
      makeWritable(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort
    }
  }
}

function makeWritable(dir: string): void {
  try {
    fs.chmodSync(dir, 0o755);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) makeWritable(path.join(dir, entry.name));
    }
  } catch {
    // best effort
  }
}

// ---------------------------------------------------------------------------------------------
// Runs with their description, and assertions on stdout, stderr and status together

export interface Ran extends RunResult {
  readonly args: readonly string[];
  readonly cwd: string;
  /** describeRun of this run, for assertion messages. */
  readonly text: string;
}

export interface RunOpts {
  readonly env?: Record<string, string | undefined>;
  readonly input?: string | Buffer;
  readonly uid?: number;
  readonly gid?: number;
  readonly bin?: string;
  readonly exe?: string;
}

export function run(args: readonly string[], cwd: string, opts: RunOpts = {}): Ran {
  const r = rt(args, { cwd, ...opts });
  const env = opts.env
    ? Object.entries(opts.env)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${v} `)
        .join('')
    : '';
  return { ...r, args, cwd, text: `${env ? `(env ${env.trim()})\n` : ''}${describeRun(args, cwd, r)}` };
}

type TextExpectation = string | RegExp | ((text: string) => boolean) | undefined;

export interface Expected {
  readonly status: number;
  /** Exact text, a pattern, a predicate, or undefined for "anything". */
  readonly stdout?: TextExpectation;
  readonly stderr?: TextExpectation;
}

function matcher(e: TextExpectation): unknown {
  if (e === undefined) return expect.any(String);
  if (typeof e === 'string') return e;
  if (e instanceof RegExp) return expect.stringMatching(e);
  const predicate = e;
  return {
    asymmetricMatch: (actual: unknown) => typeof actual === 'string' && predicate(actual),
    toString: () => `text satisfying ${predicate.toString()}`,
  };
}

/**
 * Asserts status, stdout and stderr in one comparison (a failure shows all three), and that
 * stderr is clean: every line an `rt: ` line, no stack trace.
 */
export function expectRun(r: Ran, want: Expected): void {
  expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }, r.text).toEqual({
    status: want.status,
    stdout: matcher(want.stdout),
    stderr: matcher(want.stderr),
  });
  expectCleanStderr(r);
}

/** Every stderr line starts with `rt: `, and there is no stack trace. */
export function expectCleanStderr(r: Ran): void {
  const lines = r.stderr.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const bad = lines.filter((line) => !line.startsWith('rt: '));
  expect(bad, `stderr lines not starting with "rt: "\n${r.text}`).toEqual([]);
  expect(r.stderr, `stack trace on stderr\n${r.text}`).not.toMatch(/^\s*at \S.*[:(]|\(file:\/\/|\(node:/m);
}

/** The `rt: ` lines of stderr. */
export function stderrLines(r: RunResult): string[] {
  return r.stderr.split('\n').filter((l) => l !== '');
}

// ---------------------------------------------------------------------------------------------
// Windows: parsing rt's output and writing the output expected

/** An LID: 4 characters of 0-9 a-z without i, l, o, u, at least one of them a letter. */
export const LID_RE = /^(?=[0-9a-z]*[a-hjkmnp-tv-z])[0-9a-hjkmnp-tv-z]{4}$/;

export interface ShownLine {
  readonly n: number;
  readonly lid: string;
  readonly content: string;
}

export interface ParsedWindow {
  readonly display: string;
  readonly start: number;
  readonly end: number;
  readonly total: number;
  readonly lines: readonly ShownLine[];
  readonly lids: readonly string[];
  /** The LID shown at line number n (throws when it was not shown). */
  lidAt(n: number): string;
}

/**
 * Reads a window printed by `rt open`/`rt scroll`. Tolerant: it extracts what it can; tests
 * then compare the whole output with `windowText` built from what was parsed, which catches
 * anything malformed.
 */
export function parseWindow(r: Ran): ParsedWindow {
  const out = r.stdout.split('\n');
  const header = /^--- (.*) \(lines (\d+)-(\d+) of (\d+)\) ---$/.exec(out[0] ?? '');
  const lines: ShownLine[] = [];
  for (const line of out) {
    const m = /^(\d+):([^|]*)\|(.*)$/s.exec(line);
    if (m) lines.push({ n: Number(m[1]), lid: m[2]!, content: m[3]! });
  }
  return {
    display: header?.[1] ?? '',
    start: Number(header?.[2] ?? NaN),
    end: Number(header?.[3] ?? NaN),
    total: Number(header?.[4] ?? NaN),
    lines,
    lids: lines.map((l) => l.lid),
    lidAt(n: number): string {
      const found = lines.find((l) => l.n === n);
      if (!found) throw new Error(`line ${n} was not shown\n${r.text}`);
      return found.lid;
    },
  };
}

/** The exact text of a window, given the LIDs shown (checked separately with expectLids). */
export function windowText(
  display: string,
  total: number,
  start: number,
  end: number,
  lids: readonly string[],
  contents: readonly string[],
): string {
  let s = `--- ${display} (lines ${start}-${end} of ${total}) ---\n`;
  if (start > 1) s += `(${start - 1} more lines above)\n`;
  for (let n = start; n <= end; n++)
    s += `${n}:${lids[n - start] ?? '<missing>'}|${contents[n - start] ?? '<missing>'}\n`;
  if (total > end) s += `(${total - end} more lines below)\n`;
  return s;
}

/** Every LID has the LID shape, and none repeats. */
export function expectLids(lids: readonly string[], r: Ran): void {
  const bad = lids.filter((lid) => !LID_RE.test(lid));
  expect(bad, `malformed LIDs\n${r.text}`).toEqual([]);
  const seen = new Set<string>();
  const dup = lids.filter((lid) => (seen.has(lid) ? true : (seen.add(lid), false)));
  expect(dup, `repeated LIDs\n${r.text}`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// Fixtures

/** Writes `content` (bytes or text) at `rel` under `dir`, making parent folders. */
export function write(dir: string, rel: string, content: string | Buffer): string {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

/** Lines `line 1` … `line n`, each ending with `\n`. */
export function numbered(n: number, prefix = 'line '): string {
  let s = '';
  for (let i = 1; i <= n; i++) s += `${prefix}${i}\n`;
  return s;
}

/** [start, …, end]. */
export function range(start: number, end: number): number[] {
  const out: number[] = [];
  for (let i = start; i <= end; i++) out.push(i);
  return out;
}

/** Sets a file's access and modification times to `secondsAgo` in the past. */
export function age(file: string, secondsAgo = 3600): void {
  const t = Date.now() / 1000 - secondsAgo;
  fs.utimesSync(file, t, t);
}

export interface Snapshot {
  readonly bytes: Buffer;
  readonly mtimeNs: bigint;
  readonly mode: number;
  readonly ino: bigint;
}

export function snapshot(file: string): Snapshot {
  const st = fs.statSync(file, { bigint: true });
  return { bytes: fs.readFileSync(file), mtimeNs: st.mtimeNs, mode: Number(st.mode), ino: st.ino };
}

/** Every file under `dir` (relative paths, sorted), with its bytes. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else
        out[path.relative(dir, p)] = entry.isSymbolicLink()
          ? `-> ${fs.readlinkSync(p)}`
          : fs.readFileSync(p).toString('base64');
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

/** Regular files under `dir` (relative paths, sorted). */
export function filesUnder(dir: string): string[] {
  return Object.keys(tree(dir)).sort();
}

/**
 * Options that make rt run as an unprivileged user, when the tests run as root (root ignores
 * directory permissions, so a chmod 555 root would still be writable); undefined when that is
 * impossible here. When the tests do not run as root, no change is needed: {}.
 */
export function unprivileged(): { uid: number; gid: number } | Record<string, never> | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  const nobody = { uid: 65534, gid: 65534 };
  const probe = spawnSync(process.execPath, [RT_BIN, '--version'], { ...nobody, env: cleanEnv(), cwd: os.tmpdir() });
  return probe.status === 0 ? nobody : undefined;
}

/** Line n of a `numbered` file. */
export const line = (n: number) => `line ${n}`;
/** Lines a..b of a `numbered` file. */
export const lines = (a: number, b: number) => range(a, b).map(line);
/** The text of lines, each ended by `\n`. */
export const text = (ls: readonly string[]) => ls.map((l) => `${l}\n`).join('');

/** A temporary directory holding `name` (f.txt) with `line 1` … `line n`. */
export function withFile(n = 10, name = 'f.txt'): { dir: string; file: string } {
  const dir = tempDir();
  return { dir, file: write(dir, name, numbered(n)) };
}

/** Opens `target` (PATH or PATH:RANGE), expects success, and returns the parsed window. */
export function openWindow(dir: string, target: string, extra: string[] = []): ParsedWindow {
  const r = run(['open', target, ...extra], dir);
  if (r.status !== 0) throw new Error(`rt open failed\n${r.text}`);
  return parseWindow(r);
}

// rt started asynchronously, so that it can be killed or run beside others.

export interface Finished {
  readonly args: readonly string[];
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly ms: number;
  readonly text: string;
}

export interface Started {
  readonly pid: number;
  readonly done: Promise<Finished>;
  /** Settles once the input has been handed to the child (and its stdin closed). */
  readonly fed: Promise<void>;
  kill(): void;
}

export interface StartOptions {
  readonly input?: string | Buffer;
  readonly env?: Record<string, string | undefined>;
  /** Killed (SIGKILL) after this long, and then counted as hung by the caller. */
  readonly timeoutMs?: number;
}

/** Starts bin/rt with `args` in `cwd`; `done` settles once it has exited and its output is read. */
export function start(args: readonly string[], cwd: string, options: StartOptions = {}): Started {
  const t0 = Date.now();
  const child = spawn(process.execPath, [RT_BIN, ...args], {
    cwd,
    env: cleanEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => out.push(d));
  child.stderr.on('data', (d: Buffer) => err.push(d));
  child.stdin.on('error', () => {}); // killed, or exited, before reading all of its stdin
  const fed = new Promise<void>((resolve) => {
    child.stdin.on('close', () => resolve());
    child.stdin.end(options.input ?? '', () => resolve());
  });
  const done = new Promise<Finished>((resolve, reject) => {
    const guard = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    child.on('error', (e) => {
      clearTimeout(guard);
      reject(e);
    });
    child.on('close', (status, signal) => {
      clearTimeout(guard);
      const stdout = Buffer.concat(out);
      const stderr = Buffer.concat(err).toString('utf8');
      const shown = args.map((a) => (a.length > 80 ? `${a.slice(0, 80)}…(${a.length})` : a)).join(' ');
      resolve({
        args,
        status,
        signal,
        stdout,
        stderr,
        ms: Date.now() - t0,
        text:
          `$ rt ${shown}\n(cwd ${cwd})\nexit ${status} ${signal ?? ''}\n--- ` +
          `stdout\n${stdout.toString('utf8').slice(0, 2000)}--- stderr\n${stderr.slice(0, 2000)}`,
      });
    });
  });
  return { pid: child.pid!, done, fed, kill: () => child.kill('SIGKILL') };
}

/** Runs rt to the end. */
export function runAsync(args: readonly string[], cwd: string, options: StartOptions = {}): Promise<Finished> {
  return start(args, cwd, options).done;
}
