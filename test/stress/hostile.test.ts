// 3. Hostile input: a seeded fuzzer of the command line — random subcommands, anchors, ranges,
// flags and paths, and stdin with NULs, huge lines, invalid UTF-8, lone CRs. Every run must end
// with a status from 0 to 4 without a stack trace, and leave every file either as it was or
// edited exactly as asked: the fuzzer keeps a model of the file (its lines and LIDs, read just
// before) and checks the new bytes against it — every untouched line byte for byte, the new
// lines as given. Any other file, and anything outside the fixture, must be unchanged.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempDir, tempRepo } from '../e2e/harness.js';
import { SCENARIO_TIMEOUT, SEED, pick, random } from './config.js';
import { Tally } from './figures.js';
import { crashOf, fingerprint, runAsync, type Finished } from './proc.js';

afterAll(cleanup);

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function fixture(dir: string): void {
  const files: Record<string, Buffer> = {
    'f.txt': Buffer.concat([
      Buffer.from('alpha\n\tbeta\r\ngamma '),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('\n'),
      Buffer.from(Array.from({ length: 40 }, (_, i) => `row ${i}\n`).join('')),
      Buffer.from('no final newline'),
    ]),
    'crlf.txt': Buffer.from('a\r\nb\r\nc\r\n'),
    'only-crlf.txt': Buffer.from('\r\n\r\n\r\n'),
    'empty.txt': Buffer.alloc(0),
    'bom.txt': Buffer.concat([BOM, Buffer.from('bom line\nsecond\n')]),
    'nofinal.txt': Buffer.from('x\ny'),
    'dup.txt': Buffer.from('}\n}\n\n}\n\n'),
    'bin.dat': Buffer.from('x\u0000y\n'),
    'd/g.txt': Buffer.from('hi\n'),
    'sp ace.txt': Buffer.from('space\n'),
    'colon:1.txt': Buffer.from('colon\n'),
    'long.txt': Buffer.from(`${'L'.repeat(100_000)}\n`),
  };
  for (const [name, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), bytes);
  }
}

const TEXT_FILES = [
  'f.txt',
  'crlf.txt',
  'only-crlf.txt',
  'empty.txt',
  'bom.txt',
  'nofinal.txt',
  'dup.txt',
  'd/g.txt',
  'sp ace.txt',
  'colon:1.txt',
  'long.txt',
];
const OTHER_PATHS = [
  'bin.dat',
  'd',
  'd/',
  'missing.txt',
  'new/deep/file.txt',
  'new.txt',
  '../x.txt',
  '/etc/passwd',
  '.rt/pack',
  '.rt/pack/lock',
  '.git/config',
  '',
  '.',
  'colon:1.txt:1',
  'f.txt:2-1',
  'f.txt:0',
  'F.TXT',
  'f.txt\n',
  '-f.txt',
];
const FLAGS = [
  '--force',
  '--after',
  '--diff',
  '--dry-run',
  '--json',
  '--color',
  'always',
  '--color=never',
  '--window',
  '3',
  '--window',
  '0',
  '--window',
  '-5',
  '-i',
  '-F',
  '-w',
  '-l',
  '-C',
  '2',
  '-C',
  'x',
  '--max',
  '1',
  '--max',
  '0',
  '-g',
  '*.txt',
  '-g',
  '[',
  '--hidden',
  '--no-ignore',
  '--root',
  '.',
  '--root',
  '/nonexistent',
  '--',
  '-',
  '+',
  '--bogus',
  '-h',
  '--help',
  '--version',
];
const SAFE_EDIT_FLAGS = ['--force', '--diff', '--json', '--color=never', '--force', '--force'];

type Rand = () => number;
const pickOf = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/**
 * Arguments a hostile caller might type: unicode, control characters (not NUL: argv cannot hold it), huge, path tricks.
 */
function garbage(r: Rand): string {
  switch (Math.floor(r() * 8)) {
    case 0:
      return String(Math.floor(r() * 1e6) - 1000);
    case 1:
      return '9'.repeat(1 + Math.floor(r() * 40));
    case 2:
      return Array.from({ length: 1 + Math.floor(r() * 12) }, () => String.fromCodePoint(1 + Math.floor(r() * 0x2ffff)))
        .join('')
        .replace(/[\ud800-\udfff]/g, '?');
    case 3:
      return pickOf(r, [
        '$',
        'end',
        'END',
        '$$',
        '0',
        '-0',
        '1-2',
        '1:',
        ':1',
        'zzzz',
        'ZZZZ',
        'kq3f',
        '1:kq3f',
        'a'.repeat(5000),
        '\t1\t',
        ' 2 ',
        '1e3',
        '0x10',
        '１',
        '²',
      ]);
    case 4:
      return `${pickOf(r, TEXT_FILES)}:${pickOf(r, ['1', '0', '999999', '1-3', '3-1', 'zzzz', '', 'x'])}`;
    case 5:
      return pickOf(r, OTHER_PATHS);
    case 6:
      return '\x1b[31m\x07\r';
    default:
      return pickOf(r, FLAGS);
  }
}

/** Standard input: text, NULs, invalid UTF-8, a huge line, CRs, nothing at all. */
function stdinOf(r: Rand, huge: number): Buffer {
  switch (Math.floor(r() * 10)) {
    case 0:
      return Buffer.alloc(0);
    case 1:
      return Buffer.from('\n');
    case 2:
      return Buffer.from('with\u0000nul\n');
    case 3:
      return Buffer.from([0xc3, 0x28, 0x0a, 0xff, 0xfe, 0x80, 0x0a]);
    case 4:
      return Buffer.from(`${'H'.repeat(huge)}\n`);
    case 5:
      return Buffer.from('one\r\ntwo\r\n');
    case 6:
      return Buffer.from('lone\rcr\n\r\n');
    case 7:
      return Buffer.from(Array.from({ length: 1 + Math.floor(r() * 300) }, () => Math.floor(r() * 256)));
    default:
      return Buffer.from(
        Array.from({ length: 1 + Math.floor(r() * 4) }, (_, i) => `new ${i} ${Math.floor(r() * 1000)}`).join('\n') +
          (r() < 0.7 ? '\n' : ''),
      );
  }
}

interface Line {
  readonly raw: Buffer;
  /** Content without the line ending (and without any CR before it): what an edit compares. */
  readonly text: string;
}

/** A file as lines (a BOM at the start set aside), split as rt splits it: on \n. */
function linesOf(bytes: Buffer): { bom: boolean; lines: Line[] } {
  const bom = bytes.subarray(0, 3).equals(BOM);
  const body = bom ? bytes.subarray(3) : bytes;
  const lines: Line[] = [];
  let start = 0;
  while (start < body.length) {
    const nl = body.indexOf(0x0a, start);
    const end = nl === -1 ? body.length : nl + 1;
    const raw = body.subarray(start, end);
    lines.push({ raw, text: raw.toString('latin1').replace(/\n$/, '').replace(/\r+$/, '') });
    start = end;
  }
  return { bom, lines };
}

/** The lines of an edit's text: one trailing newline removed, split on \n. */
function textLinesOf(input: Buffer): string[] {
  let s = input.toString('latin1');
  if (s.endsWith('\n')) s = s.slice(0, s.endsWith('\r\n') ? -2 : -1);
  return s.split('\n').map((l) => l.replace(/\r+$/, ''));
}

interface Model {
  readonly lids: string[];
}

/** The file's LIDs as rt shows them now (the whole file, which also marks every line shown). */
function modelOf(dir: string, file: string): Model | undefined {
  const r = run(['open', file, '--window', '100000'], dir);
  if (r.status !== 0) return undefined;
  const lids = r.stdout
    .split('\n')
    .filter((l) => /^\d+:[0-9a-z]{4}\|/.test(l))
    .map((l) => l.slice(l.indexOf(':') + 1, l.indexOf('|')));
  return { lids };
}

/** The 1-based line an anchor names in the model (count + 1 for $), or undefined when it names none. */
function lineOfAnchor(anchor: string, model: Model): number | undefined {
  const t = anchor.trim();
  if (t === '$' || t === 'end') return model.lids.length + 1;
  if (/^\d+$/.test(t)) return Number(t) >= 1 ? Number(t) : undefined;
  const both = /^(\d+):([0-9a-z]+)$/.exec(t);
  if (both) return model.lids[Number(both[1]) - 1] === both[2] ? Number(both[1]) : undefined;
  const at = model.lids.indexOf(t);
  return at >= 0 ? at + 1 : undefined;
}

/** The splice an edit command asks for, in the model: [start (0-based), deleteCount], or undefined. */
function spliceOf(verb: string, anchors: string[], after: boolean, model: Model): [number, number] | undefined {
  const count = model.lids.length;
  if (verb === 'insert') {
    const at = lineOfAnchor(anchors[0]!, model);
    if (at === undefined) return undefined;
    const isEnd = ['$', 'end'].includes(anchors[0]!.trim());
    return [isEnd ? count : after ? at : at - 1, 0];
  }
  const a = lineOfAnchor(anchors[0]!, model);
  const to = anchors[1] ?? anchors[0]!;
  const b = ['$', 'end'].includes(to.trim()) ? count : lineOfAnchor(to, model);
  if (a === undefined || b === undefined || a > count || b < a) return undefined;
  return [a - 1, b - a + 1];
}

/** Why `after` is not `before` with the splice applied (undefined when it is). */
function checkEdit(before: Buffer, after: Buffer, splice: [number, number], insert: string[]): string | undefined {
  const old = linesOf(before);
  const now = linesOf(after);
  const [start, del] = splice;
  if (start > 0 && old.bom !== now.bom) return 'the BOM changed';
  const want = [
    ...old.lines.slice(0, start).map((l) => l.text),
    ...insert,
    ...old.lines.slice(start + del).map((l) => l.text),
  ];
  // An empty file given one empty line, or a file of only an empty line, are one and the same text.
  const got = now.lines.map((l) => l.text);
  if (JSON.stringify(got) !== JSON.stringify(want))
    return `lines ${JSON.stringify(got).slice(0, 300)} where ${JSON.stringify(want).slice(0, 300)} was asked`;
  // Untouched lines keep their bytes, line endings included (but the last line of either part, whose ending an edit may
  // add or drop).
  for (let i = 0; i < start - 1; i++)
    if (!now.lines[i]!.raw.equals(old.lines[i]!.raw)) return `line ${i + 1} (untouched) changed its bytes`;
  const shift = insert.length - del;
  for (let j = start + del; j < old.lines.length - 1; j++)
    if (!now.lines[j + shift]!.raw.equals(old.lines[j]!.raw)) return `line ${j + 1} (untouched) changed its bytes`;
  return undefined;
}

/** Every file of the fixture (not .rt/, not .git/) with its bytes. */
function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (rel === '.rt' || rel === '.git') continue;
      if (e.isDirectory()) walk(p);
      else out.set(rel, fs.readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

describe('stress: hostile input', () => {
  const runs = pick(40, 1500);
  it(
    `${runs} random command lines and stdins: exit 0–4, no stack trace, files unchanged or edited exactly as asked`,
    async () => {
      const tally = new Tally('3 hostile: CLI fuzz (edits checked against a model)');
      const r = random(SEED ^ 0x3);
      const dir = tempRepo();
      const outside = tempDir('rt-stress-outside-');
      fs.writeFileSync(path.join(outside, 'x.txt'), 'outside\n');
      const outsideBefore = fingerprint(outside);
      fixture(dir);
      let edits = 0;
      let landed = 0;
      let unmodelled = 0;
      let touched: string | undefined;
      for (let i = 0; i < runs; i++) {
        // Half the runs are edits of a text file, by anchors mostly taken from what rt shows.
        const editing = r() < 0.55;
        let args: string[];
        let check:
          | ((before: Map<string, Buffer>, after: Map<string, Buffer>, res: Finished) => string | undefined)
          | undefined;
        const input = stdinOf(r, pick(200_000, 2_000_000));
        if (editing) {
          const verb = pickOf(r, ['edit', 'edit', 'insert', 'insert', 'delete', 'create']);
          const file = pickOf(r, TEXT_FILES);
          const model = verb === 'create' ? undefined : modelOf(dir, file);
          const anchorOf = (): string => {
            const roll = r();
            if (model?.lids.length && roll < 0.55) return pickOf(r, model.lids);
            if (model?.lids.length && roll < 0.65) {
              const k = Math.floor(r() * model.lids.length);
              return `${k + 1}:${model.lids[k]}`;
            }
            if (roll < 0.8) return pickOf(r, ['$', 'end', '1', '2', String((model?.lids.length ?? 1) + 1)]);
            // (Not an option: commander would take it as one, and the model could not tell.)
            const g = garbage(r);
            return g.startsWith('-') ? `x${g}` : g;
          };
          const anchors =
            verb === 'create'
              ? []
              : verb === 'insert'
                ? [anchorOf()]
                : r() < 0.5
                  ? [anchorOf()]
                  : [anchorOf(), anchorOf()];
          const flags = Array.from({ length: Math.floor(r() * 3) }, () =>
            pickOf(r, verb === 'insert' ? [...SAFE_EDIT_FLAGS, '--after'] : SAFE_EDIT_FLAGS),
          );
          args = [verb, file, ...anchors, ...flags];
          edits++;
          check = (before, after, res) => {
            const old = before.get(file);
            const now = after.get(file);
            if (old && now && old.equals(now)) return undefined;
            if (res.status !== 0) return `the file changed, though rt exited ${res.status}`;
            landed++;
            if (verb === 'create')
              return now?.equals(input) ? undefined : 'create did not write its stdin byte for byte';
            if (!model || !old || !now) return 'a file changed that could not be modelled';
            const splice = spliceOf(verb, anchors, flags.includes('--after'), model);
            if (!splice) return `rt edited, though the anchors ${JSON.stringify(anchors)} name no line of the model`;
            return checkEdit(old, now, splice, verb === 'delete' ? [] : textLinesOf(input));
          };
        } else {
          const verb = pickOf(r, [
            'open',
            'scroll',
            'find',
            'grep',
            'grep-file',
            'edit',
            'insert',
            'delete',
            'create',
            'completions',
            'help',
            'bogus',
            '--json',
            '-h',
          ]);
          args = [
            verb,
            ...Array.from({ length: Math.floor(r() * 5) }, () =>
              r() < 0.4 ? pickOf(r, [...TEXT_FILES, ...OTHER_PATHS]) : garbage(r),
            ),
          ];
          // A random command line can make a valid edit too; without a model, only its shape is checked: one file, exit
          // 0.
          if (['edit', 'insert', 'delete', 'create'].includes(verb)) {
            check = (before, after, res) => {
              const changed = [...after]
                .filter(([name, bytes]) => !before.get(name)?.equals(bytes))
                .map(([name]) => name);
              if (changed.length === 0) return undefined;
              if (res.status !== 0 || changed.length > 1)
                return `${changed.join(', ')} changed, though rt exited ${res.status}`;
              unmodelled++;
              if (verb === 'create' && !before.has(changed[0]!) && !after.get(changed[0]!)!.equals(input))
                return 'create did not write its stdin byte for byte';
              touched = changed[0];
              return undefined;
            };
          }
        }
        touched = undefined;
        const before = files(dir);
        // Asynchronously: rt may exit without reading a big stdin, which spawnSync reports as EPIPE.
        const res = await runAsync(args, dir, { input });
        tally.trials++;
        const crash = crashOf(res);
        if (crash) tally.fail('crashes', `${crash}\n${res.text.slice(0, 1500)}`);
        const after = files(dir);
        const edited = check?.(before, after, res);
        if (edited) tally.fail('torn', `${edited}\n${res.text.slice(0, 1500)}`);
        // Nothing else changed: no other file, no file appeared (but the one create made).
        for (const [name, bytes] of after) {
          if ((editing && name === args[1]) || name === touched) continue;
          const was = before.get(name);
          if (!was?.equals(bytes))
            tally.fail(
              'torn',
              `${name} ${was ? 'changed' : 'appeared'}, not the file edited\n${res.text.slice(0, 1500)}`,
            );
        }
        for (const name of before.keys())
          if (!after.has(name)) tally.fail('torn', `${name} vanished\n${res.text.slice(0, 1500)}`);
        // Keep the fixture sane: a file made binary or removed is put back for the runs to come.
        if (i % 25 === 24) {
          for (const name of [...after.keys()].filter((n) => !TEXT_FILES.includes(n) && n !== 'bin.dat'))
            fs.rmSync(path.join(dir, name), { force: true });
          fixture(dir);
        }
      }
      if (fingerprint(outside) !== outsideBefore) tally.fail('escapes', 'the folder beside the root changed');
      tally.notes =
        `${edits} edit commands, ${landed} of them changed a file (each checked against the ` +
        `model); ${unmodelled} random command lines edited a file`;
      tally.record();
      expect(tally.clean, tally.summary()).toBe(true);
    },
    SCENARIO_TIMEOUT,
  );
});

describe('a control character in an argument', () => {
  // Found by the fuzzer: `rt help $'f.txt\n'` printed the name raw, so its second line had no `rt: `.
  it.each([
    [['help', 'f.txt\nx']],
    [['open', 'a\nb.txt']],
    [['edit', 'a\nb.txt', '1']],
    [['open', '--root', 'x\ny', 'f.txt']],
    [['open', '../a\nb']],
    [['open', '.rt/a\nb']],
    [['create', 'x\n/../../../a']],
    [['open', 'a\rb\u001b[2J.txt']],
  ])('never breaks the rt: lines of stderr: rt %j', async (args) => {
    const dir = tempDir();
    const r = await runAsync(args, dir, { input: 'z\n' });
    expect(crashOf(r), r.text).toBeUndefined();
    const bad = r.stderr.split('\n').filter((l) => l !== '' && (!l.startsWith('rt: ') || /[\r\u001b]/.test(l)));
    expect(bad, r.text).toEqual([]);
  });
});

describe('a very long path', () => {
  // Found by probing: a path of 3,000 folders (past PATH_MAX) made create check each folder it
  // made ever more slowly, for minutes; it is refused at once, as before the folders were checked.
  it.each([2100, 3000])(
    'of %i folders to create is refused promptly (exit 4), without a stack trace',
    async (depth) => {
      const dir = tempDir();
      const r = await runAsync(['create', `${'a/'.repeat(depth)}x.txt`], dir, { input: 'x\n', timeoutMs: 20_000 });
      expect(r.signal, `hung\n${r.text}`).toBe(null);
      expect(crashOf(r), r.text).toBeUndefined();
      expect(r.status, r.text).toBe(4);
    },
  );
});
