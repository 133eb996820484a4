// parsePatch (core/patch/parse.ts): the patch of `rt apply`, apply_patch's envelope
// with LID hunks and context hunks, as file changes; a malformed patch is bad usage (exit 2)
// naming its line.

import { describe, expect, it } from 'vitest';
import { RtError } from '../../../src/model/errors.js';
import { parsePatch } from '../../../src/model/patch/parse.js';
import type { FileChange, PatchHunk } from '../../../src/model/patch/types.js';

/** A patch from its lines, each ended by \n. */
const patch = (...lines: string[]) => Buffer.from(lines.map((l) => `${l}\n`).join(''), 'latin1');

/** Text of bytes, one character a byte, so any bytes compare exactly. */
const str = (b: Buffer) => b.toString('latin1');

/** A parsed patch with its bytes as text and anchors as what was written, for toEqual. */
function plain(changes: readonly FileChange[]): unknown[] {
  return changes.map((c) => {
    if (c.kind === 'add') return { ...c, lines: c.lines.map(str) };
    if (c.kind === 'delete') return c;
    return { ...c, hunks: c.hunks.map(plainHunk) };
  });
}

function plainHunk(h: PatchHunk): unknown {
  switch (h.kind) {
    case 'range':
      return { kind: h.kind, op: h.op, line: h.line, from: h.from.text, to: h.to.text, rows: h.rows.map(str) };
    case 'insert':
      return { kind: h.kind, line: h.line, at: h.at.text, after: h.after, rows: h.rows.map(str) };
    case 'symbol':
      return { kind: h.kind, op: h.op, line: h.line, name: h.name, rows: h.rows.map(str) };
    case 'context':
      return {
        kind: h.kind,
        line: h.line,
        header: h.header && str(h.header),
        rows: h.rows.map((r) => `${r.line}${r.tag}${str(r.text)}`),
        endOfFile: h.endOfFile,
      };
  }
}

const parsed = (text: Buffer) => plain(parsePatch(text));

function refusal(text: Buffer): RtError {
  try {
    parsePatch(text);
  } catch (error) {
    expect(error).toBeInstanceOf(RtError);
    return error as RtError;
  }
  throw new Error('not refused');
}

function update(path: string, line: number, hunks: unknown[], moveTo?: { path: string; line: number }) {
  return { kind: 'update', line, path, moveTo, hunks };
}

describe('parsePatch: the patch of rt apply', () => {
  it('reads the example of the spec', () => {
    const text = patch(
      '*** Begin Patch',
      '*** Update File: src/app.ts',
      '@@ edit kq3f mw7a',
      '+    const total = items.reduce(add, 0) + tax;',
      '+    return Math.round(total);',
      '@@ insert after 102:p2xh',
      '+  // totals done',
      '@@ delete x7ab y2cd',
      '*** Add File: src/util.ts',
      '+export const one = 1;',
      '*** Delete File: src/old.ts',
      '*** Update File: src/a.ts',
      '*** Move to: src/b.ts',
      '*** End Patch',
    );
    expect(parsed(text)).toEqual([
      update('src/app.ts', 2, [
        {
          kind: 'range',
          op: 'edit',
          line: 3,
          from: 'kq3f',
          to: 'mw7a',
          rows: ['    const total = items.reduce(add, 0) + tax;', '    return Math.round(total);'],
        },
        { kind: 'insert', line: 6, at: '102:p2xh', after: true, rows: ['  // totals done'] },
        { kind: 'range', op: 'delete', line: 8, from: 'x7ab', to: 'y2cd', rows: [] },
      ]),
      { kind: 'add', line: 9, path: 'src/util.ts', lines: ['export const one = 1;'] },
      { kind: 'delete', line: 11, path: 'src/old.ts' },
      update('src/a.ts', 12, [], { path: 'src/b.ts', line: 13 }),
    ]);
  });

  it('gives anchors as parseAnchor reads them; TO defaults to the FROM anchor itself', () => {
    const [change] = parsePatch(
      patch('*** Update File: f', '@@ edit 12:kq3f', '+x', '@@ insert before $', '+y', '@@ delete 7 9'),
    );
    const [edit, insert, del] = (change as Extract<FileChange, { kind: 'update' }>).hunks;
    expect(edit).toMatchObject({ kind: 'range', from: { kind: 'both', line: 12, lid: 'kq3f' } });
    expect(edit?.kind === 'range' && edit.to).toBe(edit?.kind === 'range' && edit.from);
    expect(insert).toMatchObject({ kind: 'insert', after: false, at: { kind: 'end' } });
    expect(del).toMatchObject({
      kind: 'range',
      op: 'delete',
      from: { kind: 'line', line: 7 },
      to: { kind: 'line', line: 9 },
    });
  });

  it.each([
    ['no envelope at all', patch('*** Update File: f', '@@ edit kq3f', '+x')],
    ['Begin Patch only', patch('*** Begin Patch', '*** Update File: f', '@@ edit kq3f', '+x')],
    ['End Patch only', patch('*** Update File: f', '@@ edit kq3f', '+x', '*** End Patch')],
    [
      'empty lines around everything',
      patch(
        '',
        '',
        '*** Begin Patch',
        '',
        '*** Update File: f',
        '',
        '@@ edit kq3f',
        '+x',
        '',
        '',
        '*** End Patch',
        '',
        '',
      ),
    ],
    [
      'CRLF patch text',
      Buffer.from('*** Begin Patch\r\n*** Update File: f\r\n@@ edit kq3f\r\n+x\r\n*** End Patch\r\n'),
    ],
    ['no final newline', Buffer.from('*** Update File: f\n@@ edit kq3f\n+x')],
    [
      'spaces and tabs around *** lines',
      patch('  *** Begin Patch ', '\t*** Update File:   f  \t', '@@ edit kq3f', '+x', ' *** End Patch\t'),
    ],
    ['whitespace around @@ lines', patch('*** Update File: f', '\t@@ edit   kq3f  ', '+x')],
  ])('the same change whatever the layout: %s', (_name, text) => {
    const got = parsed(text) as Array<{ hunks: Array<{ line: number }> }>;
    expect(got).toMatchObject([
      {
        kind: 'update',
        path: 'f',
        moveTo: undefined,
        hunks: [{ kind: 'range', op: 'edit', from: 'kq3f', to: 'kq3f', rows: ['x'] }],
      },
    ]);
  });

  it('takes + rows byte for byte: spaces, tabs, a bare + as an empty line, invalid UTF-8, a lone \\r inside', () => {
    const text = Buffer.concat([
      patch(
        '*** Add File: f',
        '+  two spaces  ',
        '+\tTab',
        '+',
        '++plus',
        '+-minus',
        '+*** not a command',
        '+@@ not a header',
      ),
      Buffer.from([0x2b, 0xff, 0xfe, 0x80, 0x0d, 0x41, 0x0a]),
    ]);
    const [add] = parsePatch(text);
    expect(add?.kind === 'add' && add.lines.map(str)).toEqual([
      '  two spaces  ',
      '\tTab',
      '',
      '+plus',
      '-minus',
      '*** not a command',
      '@@ not a header',
      '\xff\xfe\x80\rA',
    ]);
  });

  it('removes the \\r of a CRLF line but keeps one before a \\r\\n and one on a last line without \\n', () => {
    const [add] = parsePatch(Buffer.from('*** Add File: f\r\n+a\r\n+b\r\r\n+c\r'));
    expect(add?.kind === 'add' && add.lines.map(str)).toEqual(['a', 'b\r', 'c\r']);
  });

  it('decodes paths as UTF-8, trimmed', () => {
    expect(parsed(Buffer.from('*** Delete File:  dir/naïve file.txt  \n'))).toEqual([
      { kind: 'delete', line: 1, path: 'dir/naïve file.txt' },
    ]);
  });

  it('reads an Add File with no rows as an empty file', () => {
    expect(parsed(patch('*** Add File: empty', '*** Add File: two', '+a', '+b'))).toEqual([
      { kind: 'add', line: 1, path: 'empty', lines: [] },
      { kind: 'add', line: 2, path: 'two', lines: ['a', 'b'] },
    ]);
  });

  it('ignores empty lines after the rows of a hunk or a file', () => {
    expect(
      parsed(
        patch(
          '*** Update File: f',
          '@@ edit kq3f',
          '+x',
          '',
          '  ',
          '@@ delete mw7a',
          '',
          '*** Add File: g',
          '+y',
          '',
          '\t',
        ),
      ),
    ).toEqual([
      update('f', 1, [
        { kind: 'range', op: 'edit', line: 2, from: 'kq3f', to: 'kq3f', rows: ['x'] },
        { kind: 'range', op: 'delete', line: 6, from: 'mw7a', to: 'mw7a', rows: [] },
      ]),
      { kind: 'add', line: 8, path: 'g', lines: ['y'] },
    ]);
  });

  it('does not check for a path named twice (the planner does, on resolved paths)', () => {
    expect(parsePatch(patch('*** Delete File: f', '*** Delete File: f'))).toHaveLength(2);
  });
});

describe('parsePatch: context hunks, as apply_patch writes them', () => {
  it('reads @@, @@ TEXT, context, removed and added rows, with their patch lines', () => {
    const text = patch(
      '*** Begin Patch',
      '*** Update File: f',
      '@@ function total() {',
      ' a',
      '-b',
      '+B',
      '@@',
      '-c',
      '*** End Patch',
    );
    expect(parsed(text)).toEqual([
      update('f', 2, [
        { kind: 'context', line: 3, header: 'function total() {', rows: ['4 a', '5-b', '6+B'], endOfFile: false },
        { kind: 'context', line: 7, header: undefined, rows: ['8-c'], endOfFile: false },
      ]),
    ]);
  });

  it.each([
    ['@@ TEXT keeps its bytes, trailing spaces too', '@@   two  ', '  two  '],
    ['@@ alone', '@@', undefined],
    ['@@ and spaces only', '@@    ', undefined],
    ['a unified diff header', '@@ -12,5 +12,6 @@ class Cart {', 'class Cart {'],
    ['a unified diff header without counts', '@@ -1 +1 @@ x', 'x'],
    ['a unified diff header without text', '@@ -12,5 +12,6 @@', undefined],
    ['a header that only looks like a unified one', '@@ -12,5 12,6 @@ x', '-12,5 12,6 @@ x'],
  ])('header: %s', (_name, header, want) => {
    const got = parsed(patch('*** Update File: f', header, '-old')) as Array<{ hunks: Array<{ header: unknown }> }>;
    expect(got[0]!.hunks[0]!.header).toEqual(want);
  });

  it('reads a first hunk without its @@ line, after the file line or its Move to', () => {
    expect(parsed(patch('*** Update File: f', '', ' a', '-b', '@@ c', '+d'))).toEqual([
      update('f', 1, [
        { kind: 'context', line: 3, header: undefined, rows: ['3 a', '4-b'], endOfFile: false },
        { kind: 'context', line: 5, header: 'c', rows: ['6+d'], endOfFile: false },
      ]),
    ]);
    expect(parsed(patch('*** Update File: f', '*** Move to: g', '+x'))).toEqual([
      update('f', 1, [{ kind: 'context', line: 3, header: undefined, rows: ['3+x'], endOfFile: false }], {
        path: 'g',
        line: 2,
      }),
    ]);
  });

  it('ends a hunk at *** End of File and marks it', () => {
    expect(
      parsed(
        patch('*** Update File: f', '@@', ' last', '+after', '  *** End of File ', '@@ again', '-x', '*** End of File'),
      ),
    ).toEqual([
      update('f', 1, [
        { kind: 'context', line: 2, header: undefined, rows: ['3 last', '4+after'], endOfFile: true },
        { kind: 'context', line: 6, header: 'again', rows: ['7-x'], endOfFile: true },
      ]),
    ]);
  });

  it('reads an empty line between rows as an empty context row, and drops those after the last row', () => {
    expect(
      parsed(patch('*** Update File: f', '@@', ' a', '', '\t', '-b', '', '', '@@', '-c', '', '*** End of File')),
    ).toEqual([
      update('f', 1, [
        { kind: 'context', line: 2, header: undefined, rows: ['3 a', '4 ', '5 ', '6-b'], endOfFile: false },
        { kind: 'context', line: 9, header: undefined, rows: ['10-c', '11 '], endOfFile: true },
      ]),
    ]);
  });

  it('keeps a trailing row of a space (an empty context line, as apply_patch does), not a bare empty line', () => {
    expect(parsed(patch('*** Update File: f', '@@', '-a', ' ', '  ', '', '*** Delete File: g'))).toEqual([
      update('f', 1, [{ kind: 'context', line: 2, header: undefined, rows: ['3-a', '4 ', '5  '], endOfFile: false }]),
      { kind: 'delete', line: 7, path: 'g' },
    ]);
  });

  it('reads a tagged row as a row whatever its text, but a file line or *** End … as the envelope', () => {
    expect(
      parsed(
        patch(
          '*** Update File: f',
          '@@',
          '+*** not a command',
          '-*** End Patch',
          ' *** Begin Patch',
          ' @@ not a header',
          ' *** Update File: g',
          '+y',
        ),
      ),
    ).toEqual([
      update('f', 1, [
        {
          kind: 'context',
          line: 2,
          header: undefined,
          rows: ['3+*** not a command', '4-*** End Patch', '5 *** Begin Patch', '6 @@ not a header'],
          endOfFile: false,
        },
      ]),
      update('g', 7, [{ kind: 'context', line: 8, header: undefined, rows: ['8+y'], endOfFile: false }]),
    ]);
    expect(parsed(patch('*** Update File: f', '@@', '-a', ' *** End Patch'))).toHaveLength(1);
  });
});

describe('parsePatch: an LID header or a context header', () => {
  it.each([
    [
      '+ rows only: an LID hunk',
      ['@@ edit kq3f', '+x'],
      { kind: 'range', op: 'edit', line: 2, from: 'kq3f', to: 'kq3f', rows: ['x'] },
    ],
    [
      'no rows: an LID delete',
      ['@@ delete kq3f mw7a'],
      { kind: 'range', op: 'delete', line: 2, from: 'kq3f', to: 'mw7a', rows: [] },
    ],
    [
      'a context row: a context hunk headed "edit kq3f"',
      ['@@ edit kq3f', ' a', '+x'],
      { kind: 'context', line: 2, header: 'edit kq3f', rows: ['3 a', '4+x'], endOfFile: false },
    ],
    [
      'a removed row: a context hunk',
      ['@@ delete the cache', '-a'],
      { kind: 'context', line: 2, header: 'delete the cache', rows: ['3-a'], endOfFile: false },
    ],
    [
      'a removed row after + rows: a context hunk',
      ['@@ insert after kq3f', '+x', '-y'],
      { kind: 'context', line: 2, header: 'insert after kq3f', rows: ['3+x', '4-y'], endOfFile: false },
    ],
    [
      'an invalid anchor in a context header is only text',
      ['@@ edit KQ3F', ' a'],
      { kind: 'context', line: 2, header: 'edit KQ3F', rows: ['3 a'], endOfFile: false },
    ],
    [
      'another word: a context hunk of + rows',
      ['@@ editor', '+x'],
      { kind: 'context', line: 2, header: 'editor', rows: ['3+x'], endOfFile: false },
    ],
  ])('%s', (_name, lines, want) => {
    expect((parsed(patch('*** Update File: f', ...lines)) as Array<{ hunks: unknown[] }>)[0]!.hunks).toEqual([want]);
  });
});

describe('parsePatch: hunks naming a definition (@NAME)', () => {
  it('reads @@ edit @NAME, @@ delete @NAME, @@ insert before|after @NAME as the whole definition', () => {
    const changes = parsePatch(
      patch(
        '*** Update File: a.py',
        '@@ edit @Cart.add',
        '+    def add(self):',
        '+        pass',
        '@@ delete @total',
        '@@ insert before @valid?',
        '+x = 1',
        '@@  insert   after   @#private ',
        '+',
      ),
    );
    expect(plain(changes)).toEqual([
      {
        kind: 'update',
        line: 1,
        path: 'a.py',
        moveTo: undefined,
        hunks: [
          { kind: 'symbol', op: 'edit', line: 2, name: 'Cart.add', rows: ['    def add(self):', '        pass'] },
          { kind: 'symbol', op: 'delete', line: 5, name: 'total', rows: [] },
          { kind: 'symbol', op: 'before', line: 6, name: 'valid?', rows: ['x = 1'] },
          { kind: 'symbol', op: 'after', line: 8, name: '#private', rows: [''] },
        ],
      },
    ]);
  });

  it.each([
    ['a TO after @NAME', ['@@ edit @a kq3f', '+x'], '@@ edit of a definition takes @@ edit @NAME (no TO)'],
    ['a delete with rows', ['@@ delete @a', '+x'], '@@ delete takes no rows'],
    ['an edit without rows', ['@@ edit @a'], '@@ edit has no + rows'],
    ['an insert without rows', ['@@ insert after @a'], '@@ insert has no + rows'],
    ['an insert with no place', ['@@ insert @a', '+x'], '@@ insert of a definition takes @@ insert before @NAME'],
    ['an insert over', ['@@ insert over @a', '+x'], '@@ insert of a definition takes @@ insert before @NAME'],
    ['a name with a slash', ['@@ delete @a/b'], 'not a definition\'s name: "@a/b"'],
    ['@ alone', ['@@ delete @'], 'not a definition\'s name: "@"'],
  ])('%s is refused', (_, hunk, message) => {
    let error: unknown;
    try {
      parsePatch(patch('*** Update File: a.py', ...hunk));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RtError);
    expect((error as RtError).message).toContain(`patch line 2: ${message}`);
    expect((error as RtError).exitStatus).toBe(2);
  });
});

describe('parsePatch: malformed patches are bad usage naming the patch line', () => {
  it.each([
    // The envelope and file lines.
    ['an empty patch', [], 'patch line 1: the patch changes no file'],
    ['an envelope with no file', ['*** Begin Patch', '*** End Patch'], 'patch line 2: the patch changes no file'],
    ['no file line', ['@@ edit kq3f', '+x'], 'patch line 1: a hunk before any *** Update File'],
    ['rows before any file line', ['*** Begin Patch', '+x'], 'patch line 2: a hunk before any *** Update File'],
    ['text before any file line', ['hello'], 'patch line 1: expected a file line, not "hello"'],
    [
      'an unknown *** line',
      ['*** Update File: f', '@@ edit kq3f', '+x', '*** Rename File: g'],
      'patch line 4: unknown *** line: "*** Rename File: g"',
    ],
    ['an unknown *** line first', ['*** Begin Patch', '*** Patch'], 'patch line 2: unknown *** line: "*** Patch"'],
    ['a file mark without a space', ['*** Update File:f', '+x'], 'patch line 1: unknown *** line'],
    [
      '*** Begin Patch twice',
      ['*** Begin Patch', '*** Begin Patch'],
      'patch line 2: *** Begin Patch may only be the first line',
    ],
    [
      'text after *** End Patch',
      ['*** Delete File: f', '*** End Patch', '', 'x'],
      'patch line 4: text after *** End Patch: "x"',
    ],
    [
      'a file after *** End Patch',
      ['*** Delete File: f', '*** End Patch', '*** Delete File: g'],
      'patch line 3: text after *** End Patch',
    ],
    ['an empty path', ['*** Update File:   ', '@@ edit kq3f', '+x'], 'patch line 1: *** Update File: names no path'],
    ['an empty Move to path', ['*** Update File: f', '*** Move to:'], 'patch line 2: *** Move to: names no path'],
    [
      'Move to before any file',
      ['*** Move to: g'],
      'patch line 1: *** Move to: comes only right after *** Update File: PATH',
    ],
    [
      'Move to after a hunk',
      ['*** Update File: f', '@@ edit kq3f', '+x', '*** Move to: g'],
      'patch line 4: *** Move to: comes only right after',
    ],
    [
      'Move to twice',
      ['*** Update File: f', '*** Move to: g', '*** Move to: h'],
      'patch line 3: *** Move to: comes only right after',
    ],
    [
      'Move to after Add File',
      ['*** Add File: f', '*** Move to: g'],
      'patch line 2: *** Move to: comes only right after',
    ],
    [
      'Update File with nothing',
      ['*** Update File: f', '*** Delete File: g'],
      'patch line 1: *** Update File: f has no hunk',
    ],
    [
      'Update File last with nothing',
      ['*** Update File: f', '', '*** End Patch'],
      'patch line 1: *** Update File: f has no hunk',
    ],
    ['Delete File with rows', ['*** Delete File: f', '-x'], 'patch line 2: *** Delete File takes no rows: "-x"'],
    [
      'Delete File with a hunk',
      ['*** Delete File: f', '@@ delete kq3f'],
      'patch line 2: *** Delete File takes no rows',
    ],
    [
      'End of File after a Delete File',
      ['*** Delete File: f', '*** End of File'],
      'patch line 2: *** End of File may only end a context hunk',
    ],
    [
      'End of File right after Update File',
      ['*** Update File: f', '*** End of File'],
      'patch line 2: *** End of File may only end a context hunk',
    ],
    [
      'End of File twice',
      ['*** Update File: f', '@@', '-a', '*** End of File', '*** End of File'],
      'patch line 5: *** End of File may only end a context hunk',
    ],
    [
      'End of File after an LID hunk',
      ['*** Update File: f', '@@ edit kq3f', '+x', '*** End of File'],
      'patch line 4: *** End of File may only end a context hunk',
    ],
    [
      'End of File in an Add File',
      ['*** Add File: f', '+x', '*** End of File'],
      'patch line 3: *** End of File may only end a context hunk',
    ],
    // Rows.
    [
      'a text row without + in an LID hunk',
      ['*** Update File: f', '@@ edit kq3f', '+x', 'y'],
      'patch line 4: a row of new text must start with +: "y"',
    ],
    [
      'a text row right after an LID header',
      ['*** Update File: f', '@@ insert after kq3f', 'y'],
      'patch line 3: a row of new text must start with +: "y"',
    ],
    [
      'a text row without + in an Add File',
      ['*** Add File: f', '+x', 'y'],
      'patch line 3: a row of new text must start with +: "y"',
    ],
    [
      'a removed row in an Add File',
      ['*** Add File: f', '+x', '-y'],
      'patch line 3: a row of new text must start with +: "-y"',
    ],
    [
      'a context row in an Add File',
      ['*** Add File: f', ' y'],
      'patch line 2: a row of new text must start with +: " y"',
    ],
    [
      'a hunk in an Add File',
      ['*** Add File: f', '+x', '@@ edit kq3f'],
      'patch line 3: *** Add File takes + rows only, not hunks',
    ],
    [
      'an untagged row in a context hunk',
      ['*** Update File: f', '@@', ' a', 'b'],
      "patch line 4: a row must start with ' ', '-' or '+': \"b\"",
    ],
    [
      'a text line where a hunk should be',
      ['*** Update File: f', 'x'],
      'patch line 2: expected a hunk (@@ …) of "f", not "x"',
    ],
    [
      'an empty line between + rows of an LID hunk',
      ['*** Update File: f', '@@ edit kq3f', '+x', '', '+y'],
      'patch line 4: an empty line among rows of new text',
    ],
    [
      'an empty line first in an LID hunk',
      ['*** Update File: f', '@@ edit kq3f', '', '+y'],
      'patch line 3: an empty line among rows of new text',
    ],
    [
      'a space line between + rows of an LID hunk',
      ['*** Update File: f', '@@ edit kq3f', '+x', ' ', '+y'],
      'patch line 4: an empty line among rows of new text',
    ],
    [
      'an empty line between + rows of an Add File',
      ['*** Add File: f', '+x', '', '+y'],
      'patch line 3: an empty line among rows of new text',
    ],
    ['a context hunk with no rows', ['*** Update File: f', '@@ fn', '@@', '-a'], 'patch line 2: a hunk with no rows'],
    [
      'a context hunk of End of File alone',
      ['*** Update File: f', '@@', '*** End of File'],
      'patch line 2: a hunk with no rows',
    ],
    // Headers.
    ['@@ glued to text', ['*** Update File: f', '@@edit kq3f', '+x'], 'patch line 2: not a hunk header: "@@edit kq3f"'],
    ['@@@', ['*** Update File: f', '@@@', '+x'], 'patch line 2: not a hunk header'],
    ['a delete with rows', ['*** Update File: f', '@@ delete kq3f', '+x'], 'patch line 2: @@ delete takes no rows'],
    [
      'an edit with no rows',
      ['*** Update File: f', '@@ edit kq3f', '@@ delete mw7a'],
      'patch line 2: @@ edit has no + rows',
    ],
    ['an insert with no rows', ['*** Update File: f', '@@ insert after kq3f'], 'patch line 2: @@ insert has no + rows'],
    ['an edit with no anchor', ['*** Update File: f', '@@ edit', '+x'], 'patch line 2: @@ edit takes FROM [TO]'],
    [
      'a delete with three anchors',
      ['*** Update File: f', '@@ delete a1b2 c3d4 e5f6'],
      'patch line 2: @@ delete takes FROM [TO]',
    ],
    [
      'an insert without before or after',
      ['*** Update File: f', '@@ insert kq3f', '+x'],
      'patch line 2: @@ insert takes before AT or after AT',
    ],
    [
      'an insert with two anchors',
      ['*** Update File: f', '@@ insert after kq3f mw7a', '+x'],
      'patch line 2: @@ insert takes before AT or after AT',
    ],
    ['an uppercase LID', ['*** Update File: f', '@@ edit KQ3F', '+x'], 'patch line 2: LIDs are lowercase: "KQ3F"'],
    [
      'an uppercase TO',
      ['*** Begin Patch', '*** Update File: f', '@@ edit kq3f MW7A', '+x'],
      'patch line 3: LIDs are lowercase: "MW7A"',
    ],
    ['not an anchor', ['*** Update File: f', '@@ insert before k!', '+x'], 'patch line 2: not an anchor: "k!"'],
    ['line number 0', ['*** Update File: f', '@@ delete 0'], 'patch line 2: line numbers start at 1: "0"'],
  ])('%s', (_name, lines, message) => {
    const e = refusal(patch(...lines));
    expect(e.code).toBe('usage');
    expect(e.exitStatus).toBe(2);
    expect(e.message.startsWith(message)).toBe(true);
    const line = Number(/^patch line (\d+): /.exec(e.message)?.[1]);
    expect(e.details).toMatchObject({ patchLine: line });
    expect(e.hints.length).toBeGreaterThan(0);
  });

  it("keeps parseAnchor's hint for an anchor", () => {
    expect(refusal(patch('*** Update File: f', '@@ edit KQ3F', '+x')).hints).toEqual(['use kq3f']);
  });

  it.each([
    ['in a + row', Buffer.from('*** Add File: f\n+a\n+b\0c\n'), 3],
    ['in a path', Buffer.from('*** Delete File: f\0'), 1],
    ['after CRLF lines', Buffer.from('*** Update File: f\r\n@@\r\n-a\r\n+\0\r\n'), 4],
  ])('refuses a NUL byte %s, naming its line', (_name, text, line) => {
    const e = refusal(text);
    expect(e.exitStatus).toBe(2);
    expect(e.message).toBe(`patch line ${line}: text holding a NUL byte is refused (a NUL makes a text file binary)`);
    expect(e.details).toEqual({ patchLine: line });
  });
});

describe('parsePatch: size', () => {
  it('parses a 10 MB patch of many files and hunks', () => {
    const parts: string[] = ['*** Begin Patch\n'];
    let size = 0;
    for (let f = 0; size < 10_000_000; f++) {
      const file = [`*** Update File: src/file${f}.ts\n`];
      for (let h = 0; h < 20; h++)
        file.push(
          `@@ edit ${h + 1}\n`,
          `+${'x'.repeat(60)} ${f}.${h}\n`.repeat(4),
          '@@ function f() {\n',
          ' context line\n',
          `-${'y'.repeat(60)}\n`,
          `+${'z'.repeat(60)}\n`,
        );
      const text = file.join('');
      parts.push(text);
      size += text.length;
    }
    parts.push('*** End Patch\n');
    const text = Buffer.from(parts.join(''));
    expect(text.length).toBeGreaterThan(10_000_000);
    const changes = parsePatch(text);
    const last = changes[changes.length - 1]!;
    expect(last.kind === 'update' && last.hunks.length).toBe(40);
  });

  it('parses one 10 MB row', () => {
    const [add] = parsePatch(Buffer.from(`*** Add File: f\n+${'a'.repeat(10_000_000)}\n`));
    expect(add?.kind === 'add' && add.lines[0]!.length).toBe(10_000_000);
  });
});

describe('parsePatch: a patch pasted as apply_patch users paste it', () => {
  const body = [
    '*** Begin Patch',
    '*** Update File: a.py',
    '@@ def f():',
    '-    pass',
    '+    return 1',
    '*** End Patch',
  ];
  /** The parsed body, its first line at patch line `at`. */
  const want = (at = 2) => [
    update('a.py', at + 1, [
      {
        kind: 'context',
        line: at + 2,
        header: 'def f():',
        rows: [`${at + 3}-    pass`, `${at + 4}+    return 1`],
        endOfFile: false,
      },
    ]),
  ];

  it.each([
    ["<<'EOF'", ["<<'EOF'", ...body, 'EOF']],
    ['<<EOF', ['<<EOF', ...body, 'EOF']],
    ['<< "EOF"', ['<< "EOF"', ...body, 'EOF']],
    ["<< 'EOF' with spaces around both lines", ["  << 'EOF'  ", ...body, '  EOF ']],
    ["apply_patch <<'EOF'", ["apply_patch <<'EOF'", ...body, 'EOF']],
    ["rt apply <<'PATCH'", ["rt apply <<'PATCH'", ...body, 'PATCH']],
    ['an opening line without its closing word', ["<<'EOF'", ...body]],
  ])('reads the patch inside its heredoc lines: %s', (_name, lines) => {
    expect(parsed(patch(...lines))).toEqual(want());
  });

  it('names the lines of the patch as given, heredoc lines counted', () => {
    const e = refusal(patch("apply_patch <<'EOF'", '*** Update File: a.py', '@@', 'oops', 'EOF'));
    expect(e.message).toBe("patch line 4: a row must start with ' ', '-' or '+': \"oops\"");
  });

  it("keeps a closing word that is not the opening line's", () => {
    expect(refusal(patch("<<'EOF'", '*** Add File: a', '+x', 'END')).message).toBe(
      'patch line 4: a row of new text must start with +: "END"',
    );
  });

  it('reads a patch whose every line starts with one indentation without it, and says so', () => {
    const notes: string[] = [];
    const changes = plain(parsePatch(patch(...body.map((l) => `   ${l}`)), (n) => notes.push(n)));
    expect(changes).toEqual(want(1));
    expect(notes).toEqual(['every line of the patch starts with the same indentation (3 spaces): read without it']);
  });

  it('reads so a tab-indented patch with its empty lines, an empty context row kept', () => {
    const notes: string[] = [];
    const text = patch('\t*** Update File: a', '\t@@', '\t x', '\t ', '', '\t-y', '\t+Y', '\t*** Add File: b', '\t+b');
    expect(plain(parsePatch(text, (n) => notes.push(n)))).toEqual([
      update('a', 1, [
        { kind: 'context', line: 2, header: undefined, rows: ['3 x', '4 ', '5 ', '6-y', '7+Y'], endOfFile: false },
      ]),
      { kind: 'add', line: 8, path: 'b', lines: ['b'] },
    ]);
    expect(notes).toEqual(['every line of the patch starts with the same indentation (1 tab): read without it']);
  });

  it.each([
    ['a line with less indentation', ['  *** Update File: a', '  @@', '   x', ' -y', '  +Y']],
    ['a first line that is no *** line', ['  @@', '  -y']],
    ['no indentation on the first line', ['*** Update File: a', '@@', '    x']],
  ])('reads as written a patch not indented whole: %s', (_name, lines) => {
    const notes: string[] = [];
    try {
      parsePatch(patch(...lines), (n) => notes.push(n));
    } catch {
      // Refused or not, as written.
    }
    expect(notes).toEqual([]);
  });
});
