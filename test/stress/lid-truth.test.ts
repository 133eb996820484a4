// 7. LID truth: every LID rt prints either names the very line it was printed for, or is refused
// (see LIDs are never reused). Random files rich in repeated lines (`}`, blank lines,
// `return x;`) go through random sequences of edits by rt (edit, insert, delete, by LIDs fresh
// and stale) and by an outside writer (lines inserted, deleted, changed, moved), with the state
// kept, deleted now and then, off, or off for some commands only, and commands run from two
// working directories: the parent repository and the nested one that holds the file.
//
// The test keeps a model of the file in which every line has an identity: a line keeps it
// through changes elsewhere and through moves, and a changed line is a new line. For rt's own
// edits the model follows what an edit is documented to keep (the lines outside the range; the
// first and last lines of the range given their own content again; a line of the range whose
// content occurs once in the file before and after, moved). Before every step the whole file is
// read (`rt open`), and every LID ever printed (by a window, an edit's region or a search hit)
// is looked up in what it names now. An LID naming another line than its own counts as a wrong
// line, unless
// - the two are indistinguishable (same content, and the same surroundings as the man
//   page defines them, test/support/lidModel.ts; a line whose content occurs once in the file
//   is that content, wherever it is: once the state that retired its LID is lost, the only line
//   of that content takes it again, as a moved line does), or
// - the state was deleted or off since it was printed: LIDs of 4 characters are 20 bits, and
//   without saved state (its retired LIDs) a key new to the file may by chance get a retired
//   line's LID. Those are counted apart (coincidences), and must stay within what chance allows
//   (a fault handing LIDs to lines by rank, say, would give hundreds).
// Edits by stale LIDs must be refused, or change the line the LID names; the file is compared
// with the model after every step.
//
// Commands run in-process (runCli, the CLI's own entry) for speed; one in twenty runs the built
// binary instead, so that the bundle is held to the same account.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { cleanup, rt, tempDir } from '../e2e/harness.js';
import { applyModelOp, modelLines, surroundings, type ModelLine, type ModelOp } from '../support/lidModel.js';
import { SCENARIO_TIMEOUT, SEED, pick, random } from './config.js';
import { Tally } from './figures.js';

afterAll(cleanup);

type Rand = () => number;
const pickOf = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** Contents, most of them repeated: the lines whose LIDs slid. */
const REPEATED = ['}', '', '', 'return x;', '  }', '{', 'a', 'b'];
let unique = 0;
const contentOf = (r: Rand): string => (r() < 0.7 ? pickOf(r, REPEATED) : `line ${unique++}`);

interface Ran {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** What the state is like for the commands of an episode: kept, deleted now and then, or off. */
type StateMode = 'kept' | 'deleted' | 'off';

interface Printed {
  readonly id: number;
  readonly content: string;
  /** What told its line apart each time it was printed for that line (surroundings). */
  readonly around: Set<string>;
  /** The state was deleted or off since it was printed (or when). */
  lost: boolean;
}

class Episode {
  readonly root = tempDir('rt-truth-');
  private model: ModelLine[];
  private readonly printed = new Map<string, Printed>();
  /** LID → line index, as the last full reading gave it. */
  private mapping = new Map<string, number>();
  coincidences = 0;
  excused = 0;
  diffed = 0;
  lookups = 0;
  /** The last commands and changes, for a failure's description. */
  readonly log: string[] = [];

  /** The file as it was before the outside writer's last changes, when it made several at once. */
  private beforeChanges: ModelLine[] | undefined;

  constructor(
    private readonly r: Rand,
    private readonly mode: StateMode,
    private readonly tally: Tally,
    /** How many changes the outside writer makes at most between two readings. */
    private readonly changesAtOnce: number,
  ) {
    for (const dir of [this.root, path.join(this.root, 'pkg')]) {
      const g = spawnSync('git', ['init', '-q', dir]);
      if (g.status !== 0) throw new Error(`git init: ${g.stderr}`);
    }
    this.model = modelLines(Array.from({ length: 8 + Math.floor(r() * 30) }, () => contentOf(r)));
    this.writeFile();
  }

  private get file(): string {
    return path.join(this.root, 'pkg', 'f.txt');
  }

  private writeFile(): void {
    fs.writeFileSync(this.file, this.model.map((l) => `${l.content}\n`).join(''));
  }

  private contents(): string[] {
    return this.model.map((l) => l.content);
  }

  /** Runs rt from the parent repository or the nested one, with the state as the mode says. */
  private async rt(args: (file: string) => string[], input?: string): Promise<Ran> {
    const nested = this.r() < 0.5;
    const cwd = nested ? path.join(this.root, 'pkg') : this.root;
    const off = this.mode === 'off';
    if (off) this.loseState();
    const env: Record<string, string> = { LANG: 'C.UTF-8', ...(off ? { RT_STATE: 'off' } : {}) };
    const argv = args(nested ? 'f.txt' : 'pkg/f.txt');
    this.log.push(
      `${off ? 'RT_STATE=off ' : ''}rt ${argv.join(' ')}${input !== undefined ? ` <<< ${JSON.stringify(input)}` : ''}`,
    );
    if (this.r() < 0.05) {
      const result = rt(argv, { cwd, env, ...(input !== undefined ? { input } : {}) });
      return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
    }
    let stdout = '';
    let stderr = '';
    const decode = (c: string | Uint8Array) => (typeof c === 'string' ? c : Buffer.from(c).toString('utf8'));
    const status = await runCli(
      argv,
      cwd,
      { PATH: process.env.PATH, ...env },
      { stdout: { write: (c) => (stdout += decode(c)) }, stderr: { write: (c) => (stderr += decode(c)) } },
      { isTTY: false, read: () => Buffer.from(input ?? '') },
    );
    return { status, stdout, stderr };
  }

  private loseState(): void {
    for (const p of this.printed.values()) p.lost = true;
  }

  private fail(description: string): void {
    this.tally.fail('wrongLines', description);
  }

  /** Reads the whole file and checks every LID ever printed against what it names now. */
  async check(step: string): Promise<void> {
    const r = await this.rt((f) =>
      this.model.length ? ['open', `${f}:1-${this.model.length}`, '--window', '1000'] : ['open', f],
    );
    if (r.status !== 0) {
      this.tally.fail('crashes', `${step}: open exited ${r.status}: ${r.stderr}`);
      return;
    }
    const shown = parseLines(r.stdout);
    const contents = this.contents();
    if (shown.length !== this.model.length || shown.some((l, i) => l.content !== contents[i])) {
      this.tally.fail(
        'lost',
        `${step}: the file is not what the model says\n${r.stdout}\nmodel: ${JSON.stringify(contents)}`,
      );
      return;
    }
    this.mapping = new Map(shown.map((l, i) => [l.lid, i]));
    for (const [lid, p] of this.printed) {
      const at = this.mapping.get(lid);
      if (at === undefined) continue;
      this.lookups++;
      const line = this.model[at]!;
      if (line.id === p.id) continue;
      const around = surroundings(contents, at);
      if (line.content === p.content && p.around.has(around)) this.excused++;
      // Without the state's retired LIDs, a line whose content occurs once is that content: the
      // LID it takes is the one any line of that content had as the only one (a move, by the bytes).
      else if (line.content === p.content && p.lost && around.startsWith('["unique"')) this.excused++;
      else if (this.beforeChanges && onSomeLineDiff(this.beforeChanges, this.model, p.id, at)) this.diffed++;
      // Without the state's retired LIDs, a key new to the file (other content, or other
      // surroundings) may take a retired line's LID by chance: its 4 characters are 20 bits.
      else if (p.lost) this.coincidences++;
      else {
        const named = (lines: typeof this.model) => JSON.stringify(lines.map((l) => `${l.id}:${l.content}`));
        const changes = this.beforeChanges
          ? `\nbefore the changes: ${named(this.beforeChanges)}\nafter: ${named(this.model)}`
          : '';
        this.fail(
          `${step} (${this.mode}): ${lid} was printed for ${JSON.stringify(p.content)} (line ` +
            `#${p.id}${p.lost ? ', state lost since' : ''}) and names ` +
            `line ${at + 1} ${JSON.stringify(line.content)} (#${line.id}) now\nprinted ` +
            `around: ${[...p.around].join(' / ')}\nnow ` +
            `around: ${surroundings(contents, at)}\nfile: ${JSON.stringify(contents)}${changes}` +
            `\nlog: ${this.log.slice(-6).join(' | ')}`,
        );
      }
    }
    this.record(shown.map((l, i) => ({ lid: l.lid, at: i })));
    this.beforeChanges = undefined;
  }

  /** Remembers LIDs printed for the model's lines at `at`. */
  private record(lines: ReadonlyArray<{ lid: string; at: number }>): void {
    const contents = this.contents();
    for (const { lid, at } of lines) {
      const line = this.model[at]!;
      const before = this.printed.get(lid);
      const around = before?.id === line.id ? before.around : new Set<string>();
      around.add(surroundings(contents, at));
      this.printed.set(lid, { id: line.id, content: line.content, around, lost: false });
    }
  }

  /** An LID to name a line by: mostly one of the file now, sometimes any printed before. */
  private anchorLid(): string {
    const now = [...this.mapping.keys()];
    if (now.length && this.r() < 0.75) return pickOf(this.r, now);
    return pickOf(this.r, [...this.printed.keys()]);
  }

  async step(n: number): Promise<void> {
    const r = this.r;
    const roll = r();
    if (this.mode === 'deleted' && roll < 0.08) {
      fs.rmSync(path.join(this.root, 'pkg', '.rt'), { recursive: true, force: true });
      this.log.push('rm -rf .rt');
      this.loseState();
    } else if (roll < 0.4)
      await this.outside(this.changesAtOnce === 1 ? 1 : 2 + Math.floor(r() * (this.changesAtOnce - 1)));
    else if (roll < 0.9) await this.edit(n);
    else await this.grep(n);
    await this.check(`step ${n}`);
  }

  /** Another program changes the file (one change, or two at once). */
  private async outside(changes: number): Promise<void> {
    if (changes > 1) this.beforeChanges = this.model;
    for (let k = 0; k < changes; k++) {
      const kinds: ModelOp['kind'][] = this.model.length < 6 ? ['insert'] : ['insert', 'delete', 'change', 'move'];
      const kind = pickOf(this.r, kinds);
      const at = Math.floor(this.r() * 1000);
      const o: ModelOp =
        kind === 'insert'
          ? { kind, at, lines: Array.from({ length: 1 + Math.floor(this.r() * 3) }, () => contentOf(this.r)) }
          : kind === 'delete'
            ? { kind, at, count: 1 + Math.floor(this.r() * 3) }
            : kind === 'change'
              ? { kind, at, content: contentOf(this.r) }
              : { kind, at, to: Math.floor(this.r() * 1000), count: 1 + Math.floor(this.r() * 3) };
      this.model = applyModelOp(this.model, o);
      this.log.push(`outside ${JSON.stringify(o)} → ${JSON.stringify(this.contents())}`);
    }
    this.writeFile();
  }

  /** An rt edit, insert or delete by LIDs (some of them stale), checked against the model. */
  private async edit(n: number): Promise<void> {
    const r = this.r;
    if (this.printed.size === 0 || this.model.length === 0) {
      const text = [contentOf(r), contentOf(r)];
      const ran = await this.rt((f) => ['insert', f, '$'], `${text.join('\n')}\n`);
      this.expectDone(ran, `step ${n}: append`, () => this.splice(this.model.length, 0, text));
      return;
    }
    const kind = pickOf(r, ['edit', 'edit', 'insert', 'delete'] as const);
    const from = this.anchorLid();
    const to = r() < 0.5 ? from : this.anchorLid();
    const text = Array.from({ length: 1 + Math.floor(r() * 4) }, () => contentOf(r));
    const after = r() < 0.5;
    const a = this.mapping.get(from);
    const b = this.mapping.get(to);
    const valid = a !== undefined && (kind === 'insert' || (b !== undefined && b >= a));
    const ran = await this.rt(
      (f) =>
        kind === 'insert'
          ? ['insert', f, from, ...(after ? ['--after'] : [])]
          : kind === 'edit'
            ? ['edit', f, from, to]
            : ['delete', f, from, to],
      kind === 'delete' ? undefined : `${text.join('\n')}\n`,
    );
    const what = `step ${n}: ${kind} ${from}${kind === 'insert' ? (after ? ' --after' : '') : ` ${to}`}`;
    if (!valid) {
      // A stale LID (or a range the wrong way round) must be refused, the file untouched.
      if (ran.status !== 3 && ran.status !== 2)
        this.fail(`${what}: expected a refusal, got exit ${ran.status}\n${ran.stdout}${ran.stderr}`);
      else this.expectUnchanged(what);
      return;
    }
    if (kind === 'insert') this.expectDone(ran, what, () => this.splice(after ? a + 1 : a, 0, text));
    else this.expectDone(ran, what, () => this.splice(a, b! - a + 1, kind === 'delete' ? [] : text));
  }

  private async grep(n: number): Promise<void> {
    const needle = pickOf(
      this.r,
      this.contents().filter((c) => c !== ''),
    );
    if (needle === undefined) return;
    const ran = await this.rt((f) => ['grep-file', '-F', needle, f]);
    if (ran.status !== 0) {
      this.tally.fail('crashes', `step ${n}: grep-file exited ${ran.status}: ${ran.stderr}`);
      return;
    }
    this.record(parseLines(ran.stdout).map((l) => ({ lid: l.lid, at: l.n - 1 })));
  }

  /** The edit ran (exit 0) and the file is the model with `change` made; its printed region is recorded. */
  private expectDone(ran: Ran, what: string, change: () => void): void {
    if (ran.status !== 0) {
      this.fail(
        `${what} (${this.mode}): refused (exit ${ran.status}) though its anchors name lines of the ` +
          `file\n${ran.stderr}\nlog: ${this.log.slice(-6).join(' | ')}`,
      );
      return;
    }
    change();
    const bytes = fs.readFileSync(this.file, 'utf8');
    const want = this.model.map((l) => `${l.content}\n`).join('');
    if (bytes !== want) {
      this.tally.fail('lost', `${what}: the file is ${JSON.stringify(bytes)}, the model ${JSON.stringify(want)}`);
      this.model = modelLines(bytes.split('\n').slice(0, -1));
      return;
    }
    // The region the edit printed: its LIDs are printed LIDs too.
    this.record(parseLines(ran.stdout).map((l) => ({ lid: l.lid, at: l.n - 1 })));
  }

  private expectUnchanged(what: string): void {
    const want = this.model.map((l) => `${l.content}\n`).join('');
    if (fs.readFileSync(this.file, 'utf8') !== want) this.tally.fail('torn', `${what}: refused, yet the file changed`);
  }

  /**
   * The model after rt replaced lines start..start+count-1 with `text`: the lines around keep
   * their identity, and so do those of the range the documented rules keep (see the top).
   */
  private splice(start: number, count: number, text: string[]): void {
    const old = this.model;
    const removed = old.slice(start, start + count);
    let head = 0;
    while (head < removed.length && head < text.length && removed[head]!.content === text[head]) head++;
    let tail = 0;
    while (
      tail < removed.length - head &&
      tail < text.length - head &&
      removed[removed.length - 1 - tail]!.content === text[text.length - 1 - tail]
    )
      tail++;
    const next = [...old.slice(0, start), ...text.map((content) => ({ id: -1, content })), ...old.slice(start + count)];
    const once = (lines: readonly { content: string }[], c: string) =>
      lines.filter((l) => l.content === c).length === 1;
    const middle = removed.slice(head, removed.length - tail);
    const lines: ModelLine[] = next.map((l, j) => {
      if (l.id !== -1) return l;
      const i = j - start;
      if (i < head) return removed[i]!;
      if (i >= text.length - tail) return removed[removed.length - (text.length - i)]!;
      const moved = middle.find((m) => m.content === l.content);
      if (moved && once(old, l.content) && once(next, l.content)) return moved;
      return modelLines([l.content])[0]!;
    });
    this.model = lines;
  }
}

/**
 * Whether the line `id` of `before` and line `at` of `after` are paired by some longest common
 * subsequence of the two (what a line diff may pair), or hold the same content occurring once in
 * each (a move): several changes at once can be read as any minimal diff, and the bytes say no more.
 */
function onSomeLineDiff(before: readonly ModelLine[], after: readonly ModelLine[], id: number, at: number): boolean {
  const i = before.findIndex((l) => l.id === id);
  if (i === -1) return false;
  const a = before.map((l) => l.content);
  const b = after.map((l) => l.content);
  if (a[i] !== b[at]) return false;
  if (a.filter((c) => c === a[i]).length === 1 && b.filter((c) => c === b[at]).length === 1) return true;
  const w = b.length + 1;
  const fwd = new Int32Array((a.length + 1) * w);
  const bwd = new Int32Array((a.length + 1) * w);
  for (let p = 0; p < a.length; p++)
    for (let q = 0; q < b.length; q++)
      fwd[(p + 1) * w + q + 1] =
        a[p] === b[q] ? fwd[p * w + q]! + 1 : Math.max(fwd[p * w + q + 1]!, fwd[(p + 1) * w + q]!);
  for (let p = a.length - 1; p >= 0; p--)
    for (let q = b.length - 1; q >= 0; q--)
      bwd[p * w + q] =
        a[p] === b[q] ? bwd[(p + 1) * w + q + 1]! + 1 : Math.max(bwd[(p + 1) * w + q]!, bwd[p * w + q + 1]!);
  return fwd[i * w + at]! + 1 + bwd[(i + 1) * w + at + 1]! === fwd[a.length * w + b.length]!;
}

function parseLines(stdout: string): Array<{ n: number; lid: string; content: string }> {
  const out: Array<{ n: number; lid: string; content: string }> = [];
  for (const line of stdout.split('\n')) {
    const m = /^(\d+):([0-9a-z]{4,6})\|(.*)$/s.exec(line);
    if (m) out.push({ n: Number(m[1]), lid: m[2]!, content: m[3]! });
  }
  return out;
}

async function scenario(name: string, steps: number, changesAtOnce: number, seed: number): Promise<void> {
  const tally = new Tally(name);
  const r = random(SEED ^ seed);
  const perEpisode = 40;
  const modes: StateMode[] = ['kept', 'deleted', 'off'];
  let coincidences = 0;
  let excused = 0;
  let diffed = 0;
  let lookups = 0;
  for (let e = 0; tally.trials < steps; e++) {
    const episode = new Episode(r, modes[e % modes.length]!, tally, changesAtOnce);
    await episode.check(`episode ${e} start`);
    for (let s = 0; s < perEpisode && tally.trials < steps; s++) {
      await episode.step(tally.trials);
      tally.trials++;
    }
    coincidences += episode.coincidences;
    excused += episode.excused;
    diffed += episode.diffed;
    lookups += episode.lookups;
    if (e % 20 === 19) cleanup();
  }
  tally.notes =
    `${lookups} lookups of printed LIDs; ${excused} named a line indistinguishable from theirs; ${diffed} a ` +
    `line a line diff of several changes at once pairs with theirs; ${coincidences} a line of other content ` +
    `after the state was lost (20-bit chance)`;
  tally.record();
  console.log(`${name}: ${tally.notes}`);
  expect(tally.clean, tally.summary()).toBe(true);
  // Chance alone: about (LIDs printed) × (lines new to the file) / 2^20 per episode without
  // state, a few in the full form; a fault handing LIDs about would give hundreds.
  expect(coincidences, tally.notes).toBeLessThanOrEqual(pick(3, 12));
}

describe('LID truth', () => {
  it(
    'every LID printed names the very line it was printed for, or is refused: state kept, deleted or off, ' +
      'from two working directories, one change between readings',
    () => scenario('7 LID truth: rt and outside edits, state kept/deleted/off, two cwds', pick(600, 12_000), 1, 0x7a11),
    SCENARIO_TIMEOUT,
  );

  it(
    'several outside changes at once (a formatter, a checkout): an LID names its line, a line a line diff ' +
      'pairs with it, or is refused',
    () => scenario('7 LID truth: 2-4 outside changes at once', pick(200, 4_000), 4, 0x5eed),
    SCENARIO_TIMEOUT,
  );
});
