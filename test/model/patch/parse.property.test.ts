// Properties of parsePatch: whatever the bytes, it returns file changes or refuses as bad usage
// (exit 2, naming a patch line), never another exception; and a patch rendered from any
// structure, in any of the layouts apply_patch accepts, parses back to that structure.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAnchor } from '../../../src/model/anchor.js';
import { RtError } from '../../../src/model/errors.js';
import { LID_ALPHABET } from '../../../src/model/lid.js';
import { parsePatch } from '../../../src/model/patch/parse.js';
import type { FileChange, PatchHunk, PatchRow } from '../../../src/model/patch/types.js';
import { runs } from '../../support/runs.js';

const RUNS = { numRuns: runs(1500) };

/** Lines that look like patch lines, to reach deep into the parser. */
const patchLike = fc.constantFrom(
  '*** Begin Patch',
  '*** End Patch',
  ' *** End Patch',
  '*** Update File: a',
  '*** Add File: b',
  '*** Delete File: c',
  '*** Move to: d',
  '*** End of File',
  '*** Update File:',
  '*** Nope',
  '@@',
  '@@ ',
  '@@ fn',
  '@@edit',
  '@@ edit kq3f',
  '@@ edit kq3f mw7a',
  '@@ edit KQ3F',
  '@@ delete 3',
  '@@ delete 0',
  '@@ insert after $',
  '@@ insert kq3f',
  '@@ -1,2 +1,3 @@ x',
  '+',
  '+x',
  '-',
  '-x',
  ' ',
  ' x',
  '',
  '\t',
  'x',
  '+*** End Patch',
  '\0',
  '+\xff\xfe',
);

const anyPatch = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc
    .tuple(
      fc.array(fc.oneof(patchLike, fc.string({ maxLength: 6 })), { maxLength: 14 }),
      fc.constantFrom('\n', '\r\n'),
      fc.boolean(),
    )
    .map(([lines, eol, last]) => Buffer.from(lines.join(eol) + (last ? eol : ''), 'latin1')),
);

describe('parsePatch, for any bytes', () => {
  it('returns file changes or refuses as bad usage with the patch line; never throws anything else', () => {
    fc.assert(
      fc.property(anyPatch, (text) => {
        let changes: FileChange[];
        try {
          changes = parsePatch(text);
        } catch (error) {
          expect(error).toBeInstanceOf(RtError);
          const e = error as RtError;
          expect(e.code).toBe('usage');
          const line = Number(/^patch line (\d+): ./.exec(e.message)?.[1]);
          expect(line).toBeGreaterThanOrEqual(1);
          expect(line).toBeLessThanOrEqual(Math.max(1, text.toString('latin1').split('\n').length));
          expect(e.details.patchLine).toBe(line);
          expect(e.hints.length).toBeGreaterThan(0);
          return;
        }
        expect(changes.length).toBeGreaterThan(0);
        for (const c of changes) expect(c.path.trim()).toBe(c.path);
      }),
      RUNS,
    );
  });
});

// --- a structure, rendered ----------------------------------------------------------------

/** Row text: any bytes but \n and NUL, not ending in \r (a \r before \n is the line break's). */
const rowText = fc
  .array(
    fc.oneof(
      fc.constantFrom(0x20, 0x09, 0x2a, 0x2b, 0x2d, 0x40, 0x0d, 0xff, 0xc3, 0xa9),
      fc.integer({ min: 0x21, max: 0x7e }),
    ),
    { maxLength: 8 },
  )
  .map((bytes) => Buffer.from(bytes))
  .filter((b) => b[b.length - 1] !== 0x0d);

const word = fc.stringMatching(/^[a-z0-9._-]{1,6}$/);
const path = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join('/'));

const lid = fc
  .array(fc.constantFrom(...LID_ALPHABET), { minLength: 4, maxLength: 5 })
  .map((cs) => cs.join(''))
  .filter((t) => /[a-z]/.test(t));
const anchorText = fc.oneof(
  lid,
  fc.integer({ min: 1, max: 99999 }).map(String),
  fc.tuple(fc.integer({ min: 1, max: 999 }), lid).map(([n, l]) => `${n}:${l}`),
  fc.constant('$'),
);

/** A context row whose line the parser cannot take for a `***` line (` *** End Patch` would end the patch). */
const contextRow = fc
  .tuple(fc.constantFrom<PatchRow['tag']>(' ', '-', '+'), rowText)
  .filter(([tag, text]) => tag !== ' ' || !text.toString('latin1').trim().startsWith('***'));

/** A context header: not an LID keyword first, not a unified diff's, not blank. */
const header = fc.option(
  fc
    .stringMatching(/^[ a-zA-Z(){}:]{1,12}$/)
    .filter((t) => t.trim() !== '' && !/^\s*(edit|delete|insert)(\s|$)/.test(t)),
  { nil: undefined },
);

type HunkSpec =
  | { kind: 'range'; op: 'edit' | 'delete'; from: string; to: string | undefined; rows: Buffer[] }
  | { kind: 'insert'; after: boolean; at: string; rows: Buffer[] }
  | { kind: 'context'; header: string | undefined; rows: Array<[PatchRow['tag'], Buffer]>; endOfFile: boolean };

const rows = (min: number) => fc.array(rowText, { minLength: min, maxLength: 4 });

const hunkSpec: fc.Arbitrary<HunkSpec> = fc.oneof(
  fc.record({
    kind: fc.constant('range' as const),
    op: fc.constant('edit' as const),
    from: anchorText,
    to: fc.option(anchorText, { nil: undefined }),
    rows: rows(1),
  }),
  fc.record({
    kind: fc.constant('range' as const),
    op: fc.constant('delete' as const),
    from: anchorText,
    to: fc.option(anchorText, { nil: undefined }),
    rows: fc.constant<Buffer[]>([]),
  }),
  fc.record({ kind: fc.constant('insert' as const), after: fc.boolean(), at: anchorText, rows: rows(1) }),
  fc.record({
    kind: fc.constant('context' as const),
    header,
    rows: fc.array(contextRow, { minLength: 1, maxLength: 5 }),
    endOfFile: fc.boolean(),
  }),
);

type FileSpec =
  | { kind: 'update'; path: string; moveTo: string | undefined; hunks: HunkSpec[] }
  | { kind: 'add'; path: string; lines: Buffer[] }
  | { kind: 'delete'; path: string };

const fileSpec: fc.Arbitrary<FileSpec> = fc.oneof(
  fc
    .record({
      kind: fc.constant('update' as const),
      path,
      moveTo: fc.option(path, { nil: undefined }),
      hunks: fc.array(hunkSpec, { maxLength: 4 }),
    })
    .filter((f) => f.hunks.length > 0 || f.moveTo !== undefined),
  fc.record({ kind: fc.constant('add' as const), path, lines: rows(0) }),
  fc.record({ kind: fc.constant('delete' as const), path }),
);

/** Layout choices apply_patch accepts: none changes what the patch says. */
const layout = fc.record({
  envelope: fc.boolean(),
  crlf: fc.boolean(),
  pad: fc.constantFrom('', ' ', '\t', '  '),
  blankAfterRows: fc.boolean(),
  finalNewline: fc.boolean(),
  bareFirstHunk: fc.boolean(),
});

type Layout = {
  envelope: boolean;
  crlf: boolean;
  pad: string;
  blankAfterRows: boolean;
  finalNewline: boolean;
  bareFirstHunk: boolean;
};

const latin1 = (b: Buffer) => b.toString('latin1');

/** A parsed patch with bytes as latin1 text and anchors as written, as render() describes it. */
function plain(changes: readonly FileChange[]): unknown[] {
  return changes.map((c) =>
    c.kind === 'add'
      ? { ...c, lines: c.lines.map(latin1) }
      : c.kind === 'delete'
        ? c
        : { ...c, hunks: c.hunks.map(plainHunk) },
  );
}

function plainHunk(h: PatchHunk): unknown {
  if (h.kind === 'range')
    return { kind: h.kind, op: h.op, line: h.line, from: h.from.text, to: h.to.text, rows: h.rows.map(latin1) };
  if (h.kind === 'insert')
    return { kind: h.kind, line: h.line, at: h.at.text, after: h.after, rows: h.rows.map(latin1) };
  if (h.kind === 'symbol') return { kind: h.kind, op: h.op, line: h.line, name: h.name, rows: h.rows.map(latin1) };
  return {
    kind: h.kind,
    line: h.line,
    header: h.header && latin1(h.header),
    rows: h.rows.map((r) => `${r.line}${r.tag}${latin1(r.text)}`),
    endOfFile: h.endOfFile,
  };
}

/** `files` as patch lines (latin1 text, a character a byte), and what parsePatch should give. */
function render(files: readonly FileSpec[], how: Layout): { text: Buffer; want: unknown[] } {
  const lines: string[] = [];
  const want: unknown[] = [];
  const mark = (text: string) => `${how.pad}${text}${how.pad}`;
  if (how.envelope) lines.push(mark('*** Begin Patch'));
  for (const f of files) {
    const at = lines.length + 1;
    if (f.kind === 'delete') {
      lines.push(mark(`*** Delete File: ${f.path}`));
      want.push({ kind: 'delete', line: at, path: f.path });
      continue;
    }
    if (f.kind === 'add') {
      lines.push(mark(`*** Add File: ${f.path}`), ...f.lines.map((l) => `+${latin1(l)}`));
      if (how.blankAfterRows) lines.push('');
      want.push({ kind: 'add', line: at, path: f.path, lines: f.lines.map(latin1) });
      continue;
    }
    lines.push(mark(`*** Update File: ${f.path}`));
    const moveTo =
      f.moveTo === undefined ? undefined : { path: f.moveTo, line: lines.push(mark(`*** Move to: ${f.moveTo}`)) };
    const hunks = f.hunks.map((h, n) => renderHunk(h, lines, how, n === 0));
    want.push({ kind: 'update', line: at, path: f.path, moveTo, hunks });
  }
  if (how.envelope) lines.push(mark('*** End Patch'));
  const eol = how.crlf ? '\r\n' : '\n';
  return { text: Buffer.from(lines.join(eol) + (how.finalNewline ? eol : ''), 'latin1'), want };
}

function renderHunk(h: HunkSpec, lines: string[], how: Layout, first: boolean): unknown {
  if (h.kind === 'context') {
    // apply_patch lets a first hunk go without its @@ line (blank lines before rows are skipped).
    const bare =
      how.bareFirstHunk &&
      first &&
      h.header === undefined &&
      latin1(Buffer.concat([Buffer.from(h.rows[0]![0]), h.rows[0]![1]])).trim() !== '';
    if (!bare) lines.push(h.header === undefined ? '@@' : `@@ ${h.header}`);
    const line = bare ? lines.length + 1 : lines.length;
    const rows = h.rows.map(([tag, text]) => `${lines.push(`${tag}${latin1(text)}`)}${tag}${latin1(text)}`);
    if (h.endOfFile) lines.push(`${how.pad}*** End of File`);
    return { kind: 'context', line, header: h.header, rows, endOfFile: h.endOfFile };
  }
  const line = lines.length + 1;
  if (h.kind === 'insert') lines.push(`@@ insert ${h.after ? 'after' : 'before'} ${h.at}`);
  else lines.push(`@@ ${h.op} ${h.from}${h.to === undefined ? '' : ` ${h.to}`}`);
  lines.push(...h.rows.map((r) => `+${latin1(r)}`));
  if (how.blankAfterRows) lines.push('');
  if (h.kind === 'insert') return { kind: 'insert', line, at: h.at, after: h.after, rows: h.rows.map(latin1) };
  return { kind: 'range', op: h.op, line, from: h.from, to: h.to ?? h.from, rows: h.rows.map(latin1) };
}

describe('parsePatch, for any structured patch', () => {
  it('gives back the structure it was rendered from, whatever the layout', () => {
    fc.assert(
      fc.property(fc.array(fileSpec, { minLength: 1, maxLength: 4 }), layout, (files, how) => {
        const { text, want } = render(files, how);
        // A patch indented whole that changes nothing as written is read without its indentation
        // (a patch copied from an indented block): not this property's layout.
        const noOp = files.every(
          (f) =>
            f.kind === 'update' &&
            !f.moveTo &&
            f.hunks.every((h) => h.kind === 'context' && h.rows.every((r) => r[0] === ' ')),
        );
        const indented = text
          .toString('latin1')
          .split(/\r?\n/)
          .every((l) => l.trim() === '' || /^[ \t]/.test(l));
        fc.pre(!(noOp && indented));
        expect(plain(parsePatch(text))).toEqual(want);
      }),
      RUNS,
    );
  });

  it('reads anchors as parseAnchor does', () => {
    fc.assert(
      fc.property(anchorText, anchorText, (a, b) => {
        const [change] = parsePatch(Buffer.from(`*** Update File: f\n@@ edit ${a} ${b}\n+x\n`));
        const update = change as Extract<FileChange, { kind: 'update' }>;
        const hunk = update.hunks[0] as Extract<PatchHunk, { kind: 'range' }>;
        expect(hunk.from).toEqual(parseAnchor(a));
        expect(hunk.to).toEqual(parseAnchor(b));
      }),
      { numRuns: runs(300) },
    );
  });
});
