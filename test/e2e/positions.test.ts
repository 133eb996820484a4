// Positions after a path (`rt open PATH[:LINE | :START-END | :LID]`): what does not
// parse after an existing file is bad usage with the forms; a grep hit pasted whole as an
// edit's PATH is answered with the command meant. Run through the built binary.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, numbered, openWindow, run, tempDir, tree, write } from './harness.js';

afterAll(cleanup);

const FORMS = 'rt open takes PATH, PATH:LINE, PATH:START-END, PATH:LID, PATH:LINE:LID or PATH:@NAME';

describe('rt open PATH:POSITION that does not parse (found by a user trial: "no such file", exit 4)', () => {
  const dir = tempDir();
  write(dir, 'f.txt', numbered(300));

  it.each([
    ['$', "rt: open has no $: the last line's number is in the header of rt open f.txt"],
    ['end', "rt: open has no $: the last line's number is in the header of rt open f.txt"],
    ['1-', 'rt: a range needs its END (an END past the end of the file is cut to it): rt open f.txt:1-200'],
    ['-3', 'rt: a range needs its START: rt open f.txt:1-3'],
    ['+5', 'rt: a line is its number alone: rt open f.txt:5'],
    ['1,5', 'rt: a range is START-END: rt open f.txt:1-5'],
    ['x', 'rt: e.g. rt open f.txt:120 (centred on line 120), rt open f.txt:101-140, or rt open f.txt (the top)'],
    ['7:xyz', 'rt: e.g. rt open f.txt:120 (centred on line 120), rt open f.txt:101-140, or rt open f.txt (the top)'],
  ])('f.txt:%s is bad usage (exit 2) naming the forms of a position', (where, hint) => {
    const r = run(['open', `f.txt:${where}`], dir);
    expectRun(r, {
      status: 2,
      stdout: '',
      stderr: `rt: f.txt:${where}: ${JSON.stringify(where)} is not a position; ${FORMS}\n${hint}\n`,
    });
  });

  it('nothing after the colon is bad usage too; --json says so with the path and the position', () => {
    expectRun(run(['open', 'f.txt:'], dir), {
      status: 2,
      stdout: '',
      stderr: new RegExp(`^rt: f\\.txt:: nothing follows its last colon; ${FORMS}\n`),
    });
    const j = run(['open', 'f.txt:$', '--json'], dir);
    expect(j.status, j.text).toBe(2);
    expect(JSON.parse(j.stdout).error, j.text).toMatchObject({ code: 'usage', exit: 2, path: 'f.txt', position: '$' });
  });

  it('a file whose name holds colons still opens; the longest existing name is the file', () => {
    const d = tempDir();
    write(d, 'a', 'file a\n');
    write(d, 'a:b', 'file a:b\n');
    write(d, 'a:b:5', 'file a:b:5\n');
    write(d, 'dir/x.txt', 'x\n');
    expect(openWindow(d, 'a:b').lines.map((l) => l.content)).toEqual(['file a:b']);
    expect(openWindow(d, 'a:b:5').lines.map((l) => l.content)).toEqual(['file a:b:5']);
    expect(openWindow(d, 'a:b:1').lines.map((l) => l.content)).toEqual(['file a:b']);
    expect(openWindow(d, 'a:1').lines.map((l) => l.content)).toEqual(['file a']);
    expectRun(run(['open', 'a:c'], d), { status: 2, stdout: '', stderr: /^rt: a:c: "c" is not a position; / });
    expectRun(run(['open', 'a:b:$'], d), { status: 2, stdout: '', stderr: /^rt: a:b:\$: "\$" is not a position; / });
  });

  it('a missing file is "no such file" (exit 4) whatever follows; so is a name with a / after the colon', () => {
    expectRun(run(['open', 'nope.txt:$'], dir), {
      status: 4,
      stdout: '',
      stderr: /^rt: no such file: nope\.txt:\$\n/,
    });
    expectRun(run(['open', 'nope.txt:5'], dir), { status: 4, stdout: '', stderr: /^rt: no such file: nope\.txt\n/ });
    fs.mkdirSync(path.join(dir, 'd'));
    expectRun(run(['open', 'd:x/f.txt'], dir), { status: 4, stdout: '', stderr: /^rt: no such file: d:x\/f\.txt\n/ });
  });
});

describe('a grep hit pasted whole as the PATH of edit, insert or delete', () => {
  it('is bad usage (exit 2) saying the command meant, which then works; nothing is written', () => {
    const dir = tempDir();
    const file = write(dir, 'f.txt', numbered(10));
    const hit = run(['grep', '^line 7$'], dir).stdout.split('|')[0]!; // f.txt:7:LID
    const lid = hit.split(':')[2]!;
    const before = tree(dir);
    const meant = (cmd: string) =>
      `rt: f.txt:7:${lid} is not a file: it is f.txt and its line 7:${lid}, as grep prints a hit\nrt: did ` +
      `you mean: ${cmd}\n`;
    expectRun(run(['edit', hit], dir, { input: 'seven\n' }), {
      status: 2,
      stdout: '',
      stderr: meant(`rt edit f.txt 7:${lid} <<'EOF'`),
    });
    expectRun(run(['insert', '--after', hit], dir, { input: 'x\n' }), {
      status: 2,
      stdout: '',
      stderr: meant(`rt insert f.txt 7:${lid} --after <<'EOF'`),
    });
    expectRun(run(['delete', hit, '--dry-run'], dir), {
      status: 2,
      stdout: '',
      stderr: meant(`rt delete f.txt 7:${lid} --dry-run`),
    });
    // With the operands the command takes: the others are kept in the command meant.
    expectRun(run(['delete', hit, '8'], dir), { status: 2, stdout: '', stderr: meant(`rt delete f.txt 7:${lid} 8`) });
    const j = run(['edit', hit, '--json'], dir, { input: 'seven\n' });
    expect(j.status, j.text).toBe(2);
    expect(JSON.parse(j.stdout).error, j.text).toMatchObject({
      code: 'usage',
      exit: 2,
      path: 'f.txt',
      anchor: `7:${lid}`,
      hints: [`did you mean: rt edit f.txt 7:${lid} <<'EOF'`],
    });
    expect(tree(dir)).toEqual(before);
    expect(run(['edit', 'f.txt', `7:${lid}`], dir, { input: 'seven\n' }).status).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(numbered(10).replace('line 7\n', 'seven\n'));
  });

  it('PATH:LINE and PATH:LID are taken as pasted too; a file of that whole name is edited as usual', () => {
    const dir = tempDir();
    write(dir, 'f.txt', numbered(3));
    expectRun(run(['delete', 'f.txt:2'], dir), {
      status: 2,
      stdout: '',
      stderr: new RegExp(
        String.raw`^rt: f\.txt:2 is not a file: it is f\.txt and its line 2, as grep prints a hit\nrt: did you ` +
          String.raw`mean: rt delete f\.txt 2\n$`,
      ),
    });
    write(dir, 'f.txt:2', numbered(3));
    const w = openWindow(dir, 'f.txt:2');
    expect(w.display).toBe('f.txt:2');
    expect(run(['delete', 'f.txt:2', w.lidAt(1)], dir).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'f.txt:2'), 'utf8')).toBe('line 2\nline 3\n');
  });

  it('what follows the file must be an anchor: otherwise the usual refusal', () => {
    const dir = tempDir();
    write(dir, 'f.txt', numbered(3));
    expectRun(run(['edit', 'f.txt:zz'], dir), {
      status: 2,
      stdout: '',
      stderr: /^rt: missing required argument 'from'\nrt: see the usage with: rt help edit\n$/,
    });
    expectRun(run(['edit', 'f.txt:$', '1'], dir, { input: 'x\n' }), {
      status: 4,
      stdout: '',
      stderr: /^rt: no such file: f\.txt:\$/,
    });
  });
});
