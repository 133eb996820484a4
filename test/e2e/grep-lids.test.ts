// A hit's LID is the LID `rt open` shows for that line, always: also when grep takes it
// from the file's saved index, printing the line as the prefilter read it, without reading the
// file (src/store/indexedFile.ts, indexedLinesAsRead). Random files (CRLF, a BOM, bytes that are not
// UTF-8, lines longer than ripgrep prints for rt, a last line without \n ending in \r) go
// through rt's edits, changes outside rt (settled or just made, within the timestamp
// granularity), and after each step every hit of a search is checked against `rt open`.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, run, tempRepo, write } from './harness.js';
import { git } from './search-fixture.js';
import { runs } from '../support/runs.js';

afterAll(cleanup);

const hasRipgrep = spawnSync('rg', ['--version']).status === 0;
const NEEDLE = 'needle';
const FILES = ['a.txt', 'b.txt', 'sub/c.txt'];

/** Lines a file is made of (each a Buffer, without its ending). */
const lineArb = fc.oneof(
  fc.constantFrom('needle here', 'plain', '', '  needle(x);', 'needle', 'no match'),
  fc.constant('x'.repeat(20_000) + ' needle ' + 'y'.repeat(100)),
  fc.constant(
    Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9, 0xff]), Buffer.from(' needle')]).toString('latin1'),
  ),
);

const fileArb = fc.record({
  bom: fc.boolean(),
  crlf: fc.boolean(),
  lines: fc.array(lineArb, { minLength: 1, maxLength: 12 }),
  // How the last line ends: \n (or \r\n), nothing, or a \r that is content.
  end: fc.constantFrom('newline', 'none', 'cr'),
});

type FileSpec = typeof fileArb extends fc.Arbitrary<infer T> ? T : never;

function bytesOf(spec: FileSpec): Buffer {
  const eol = spec.crlf ? '\r\n' : '\n';
  const parts = spec.lines.map((l, i) =>
    Buffer.from(
      i < spec.lines.length - 1 || spec.end === 'newline' ? l + eol : spec.end === 'cr' ? `${l}\r` : l,
      'latin1',
    ),
  );
  return Buffer.concat([spec.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), ...parts]);
}

const stepArb = fc.oneof(
  // Written outside rt, settled (a minute old: an index saved now is trusted alone) or just now.
  fc.record({
    kind: fc.constant('write' as const),
    file: fc.constantFrom(...FILES),
    spec: fileArb,
    settled: fc.boolean(),
  }),
  // A line changed outside rt to one of the same length, the file's times set back as they were.
  fc.record({ kind: fc.constant('same-size' as const), file: fc.constantFrom(...FILES) }),
  // Its times set back: a file rt edited (so written just now) becomes settled.
  fc.record({ kind: fc.constant('settle' as const), file: fc.constantFrom(...FILES) }),
  // An edit by rt: a line replaced, or one inserted.
  fc.record({
    kind: fc.constantFrom('edit' as const, 'insert' as const),
    file: fc.constantFrom(...FILES),
    at: fc.nat(),
    text: fc.constantFrom('needle new', 'other', 'x needle\r'),
  }),
);

const minuteAgo = () => new Date(Date.now() - 60_000);

interface Hit {
  path: string;
  n: number;
  lid: string;
  text: string;
  base64?: string;
}

/** Every hit of a search, each checked against rt open's line of that number, and against the file. */
function checkHits(dir: string, env: Record<string, string>): number {
  const r = run(['grep', '-F', NEEDLE, '--max', '100000', '--json'], dir, { env });
  expect(r.status === 0 || r.status === 1, r.text).toBe(true);
  const hits = (JSON.parse(r.stdout) as { hits: Hit[] }).hits;
  const byPath = new Map<string, Hit[]>();
  for (const hit of hits) byPath.set(hit.path, [...(byPath.get(hit.path) ?? []), hit]);
  for (const rel of FILES) {
    const file = path.join(dir, rel);
    if (!fs.existsSync(file)) continue;
    // The lines of the file as rt shows them (no BOM, no \r of a line ending) that hold the needle.
    const bytes = fs.readFileSync(file);
    const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
    const contents = body.toString('latin1').split('\n');
    if (contents[contents.length - 1] === '') contents.pop();
    const shownLines = contents.map((c, i) =>
      i < contents.length - 1 || body[body.length - 1] === 0x0a ? c.replace(/\r$/, '') : c,
    );
    const expected = shownLines.flatMap((c, i) => (c.includes(NEEDLE) ? [i + 1] : []));
    const got = byPath.get(rel) ?? [];
    expect(
      got.map((h) => h.n),
      `${rel}\n${r.text}`,
    ).toEqual(expected);
    if (!got.length) continue;
    const open = run(['open', rel, '--window', '1000', '--json'], dir, { env });
    expect(open.status, open.text).toBe(0);
    const lines = (JSON.parse(open.stdout) as { lines: Hit[] }).lines;
    for (const hit of got) {
      const line = lines.find((l) => l.n === hit.n);
      expect(
        { n: hit.n, lid: hit.lid, text: hit.text, base64: hit.base64 },
        `${rel}:${hit.n}\n${r.text}\n${open.text}`,
      ).toEqual({ n: line?.n, lid: line?.lid, text: line?.text, base64: line?.base64 });
      expect(
        Buffer.from(hit.base64 ?? '', 'base64').length
          ? Buffer.from(hit.base64!, 'base64').toString('latin1')
          : hit.text,
        rel,
      ).toBe(hit.base64 ? shownLines[hit.n - 1] : Buffer.from(shownLines[hit.n - 1]!, 'latin1').toString('utf8'));
    }
  }
  return hits.length;
}

type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

function apply(dir: string, step: Step, env: Record<string, string>): void {
  const file = path.join(dir, step.file);
  switch (step.kind) {
    case 'write': {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, bytesOf(step.spec));
      if (step.settled) fs.utimesSync(file, minuteAgo(), minuteAgo());
      return;
    }
    case 'same-size': {
      if (!fs.existsSync(file)) return;
      const st = fs.statSync(file);
      const bytes = fs.readFileSync(file);
      const at = bytes.indexOf('needle');
      if (at === -1) return;
      bytes[at] = 0x4e; // needle → Needle: the line no longer matches
      fs.writeFileSync(file, bytes);
      fs.utimesSync(file, st.atime, st.mtime);
      return;
    }
    case 'settle':
      if (fs.existsSync(file)) fs.utimesSync(file, minuteAgo(), minuteAgo());
      return;
    case 'edit':
    case 'insert': {
      if (!fs.existsSync(file)) return;
      const open = run(['open', step.file, '--window', '1000', '--json'], dir, { env });
      const total = (JSON.parse(open.stdout) as { total: number }).total;
      if (total === 0) return;
      const n = String((step.at % total) + 1);
      const r = run(
        step.kind === 'edit' ? ['edit', step.file, n, n, '--force'] : ['insert', step.file, n, '--force'],
        dir,
        { env, input: `${step.text}\n` },
      );
      expect(r.status, r.text).toBe(0);
    }
  }
}

describe.skipIf(!hasRipgrep)('every hit of grep has the LID rt open shows for its line', () => {
  for (const [name, env] of [
    ['found by ripgrep', {}],
    ['found by git grep', { RT_RIPGREP: 'off' }],
  ] as const) {
    it(`${name}: through edits, changes outside rt, settled and racy files`, () => {
      let checked = 0;
      fc.assert(
        fc.property(
          fc.array(fileArb, { minLength: FILES.length, maxLength: FILES.length }),
          fc.array(stepArb, { minLength: 1, maxLength: 4 }),
          (specs, steps) => {
            const dir = tempRepo();
            specs.forEach((spec, i) => write(dir, FILES[i]!, bytesOf(spec)));
            // Tracked, so that git grep reads them; settled, so that their indexes are trusted alone.
            git(dir, ['add', '.']);
            for (const rel of FILES) fs.utimesSync(path.join(dir, rel), minuteAgo(), minuteAgo());
            checked += checkHits(dir, env);
            for (const step of steps) {
              apply(dir, step, env);
              checked += checkHits(dir, env);
            }
          },
        ),
        { numRuns: runs(6) },
      );
      expect(checked).toBeGreaterThan(0);
    }, 600_000);
  }
});

describe.skipIf(!hasRipgrep)('a file found is known text from its saved index only while that describes it', () => {
  it('a file made binary since its index was saved (same size, same mtime) is not searched', () => {
    const dir = tempRepo();
    write(dir, 'a.txt', 'needle one\n');
    write(dir, 'b.txt', 'needle two\n');
    git(dir, ['add', '.']);
    const settled = minuteAgo();
    for (const rel of ['a.txt', 'b.txt']) fs.utimesSync(path.join(dir, rel), settled, settled);
    for (const rel of ['a.txt', 'b.txt']) expect(run(['open', rel], dir).status).toBe(0);
    const both = run(['grep', '-F', NEEDLE], dir);
    expect(both.stdout).toMatch(/^a\.txt:1:\w+\|needle one\nb\.txt:1:\w+\|needle two\n$/);
    // A NUL in place of the space: binary to rt, with the size and mtime the index was saved with.
    fs.writeFileSync(path.join(dir, 'b.txt'), 'needle\0two\n');
    fs.utimesSync(path.join(dir, 'b.txt'), settled, settled);
    const after = run(['grep', '-F', NEEDLE], dir);
    expect(after.stdout).toBe(both.stdout.split('\n')[0] + '\n');
    expect(run(['grep', '-F', NEEDLE], dir, { env: { RT_RIPGREP: 'off', RT_GIT_GREP: 'off' } }).stdout).toBe(
      after.stdout,
    );
    // Files and counts are told without reading the lines: only what tells text from binary decides.
    expect(run(['grep', '-l', '-F', NEEDLE], dir).stdout).toBe('a.txt\n');
    expect(run(['grep', '-c', '-F', NEEDLE], dir).stdout).toBe('a.txt:1\n');
  });

  it('an undo that writes a binary file back saves no index of it: it stays unsearched and unopened', () => {
    const dir = tempRepo();
    const binary = Buffer.concat([Buffer.from('needle one\n'), Buffer.alloc(300, 1), Buffer.from('\0\nneedle two\n')]);
    write(dir, 'b.dat', binary);
    write(dir, 'a.txt', 'needle in text\n');
    const hour = new Date(Date.now() - 3_600_000);
    fs.utimesSync(path.join(dir, 'b.dat'), hour, hour);
    expect(run(['create', 'b.dat', '--force'], dir, { input: 'text needle\n' }).status).toBe(0);
    const undone = run(['undo'], dir);
    expect(undone.status).toBe(0);
    // No lines of it, nor LIDs: rt shows no binary file.
    expect(undone.stdout).toMatch(/^restored b\.dat: a binary file, not shown$/m);
    expect(undone.stdout).not.toMatch(/needle/);
    // (Its time as it was: rt's own write, an index of which would be trusted by its stamp alone.)
    expect(fs.readFileSync(path.join(dir, 'b.dat'))).toEqual(binary);
    for (const env of [{}, { RT_RIPGREP: 'off' }, { RT_RIPGREP: 'off', RT_GIT_GREP: 'off' }]) {
      expect(run(['grep', '-F', NEEDLE], dir, { env }).stdout).toMatch(/^a\.txt:1:\w+\|needle in text\n$/);
      expect(run(['grep', '-l', '-F', NEEDLE], dir, { env }).stdout).toBe('a.txt\n');
    }
    expect(run(['open', 'b.dat'], dir).status).not.toBe(0);
    // The step is made again over the binary file it replaced (its bytes compared whole), and taken back again.
    expect(run(['redo'], dir).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'b.dat'), 'utf8')).toBe('text needle\n');
    expect(run(['grep', '-l', '-F', NEEDLE], dir).stdout).toBe('a.txt\nb.dat\n');
    expect(run(['undo'], dir).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'b.dat'))).toEqual(binary);
    // Binary bytes other than the step's: refused as binary, nothing written.
    fs.appendFileSync(path.join(dir, 'b.dat'), 'more\n');
    const refused = run(['redo', '--force'], dir);
    expect(refused.status).toBe(4);
    expect(refused.stderr).toMatch(/binary/);
    expect(fs.readFileSync(path.join(dir, 'b.dat'))).toEqual(Buffer.concat([binary, Buffer.from('more\n')]));
  });
});
