// End-to-end tests of `rt open`: the built binary, run in fresh
// temporary directories; every assertion looks at stdout, stderr and the exit status together.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  age,
  cleanup,
  expectCleanStderr,
  expectLids,
  expectRun,
  numbered,
  parseWindow,
  run,
  snapshot,
  stderrLines,
  tempDir,
  tempRepo,
  unprivileged,
  windowText,
  write,
  type Ran,
  lines,
} from './harness.js';

afterAll(cleanup);

/** A temporary directory holding a.txt with `line 1` … `line n`. */
function withNumbered(n = 300): string {
  const dir = tempDir();
  write(dir, 'a.txt', numbered(n));
  return dir;
}

/** Asserts that `r` printed exactly the window start..end of the numbered file a.txt. */
function expectNumberedWindow(r: Ran, start: number, end: number, total = 300, display = 'a.txt', stderr = ''): void {
  const w = parseWindow(r);
  expectRun(r, { status: 0, stdout: windowText(display, total, start, end, w.lids, lines(start, end)), stderr });
  expectLids(w.lids, r);
}

/** A failed command: `status`, nothing on stdout, `rt: ` lines on stderr matching `stderr`. */
function expectFailure(r: Ran, status: number, stderr: RegExp = /^rt: /): void {
  expectRun(r, { status, stdout: '', stderr });
  expect(r.stderr.length, r.text).toBeGreaterThan(0);
}

describe('rt open: which window', () => {
  it('prints the first 100 lines by default: header, lines, and the count below', () => {
    const dir = withNumbered(300);
    const r = run(['open', 'a.txt'], dir);
    expectNumberedWindow(r, 1, 100);
    expect(r.stdout.startsWith('--- a.txt (lines 1-100 of 300) ---\n1:'), r.text).toBe(true);
    expect(r.stdout.endsWith('|line 100\n(200 more lines below)\n'), r.text).toBe(true);
  });

  it('prints a short file whole, with no count lines', () => {
    const dir = tempDir();
    write(dir, 'short.txt', 'alpha\nbeta\ngamma\n');
    const r = run(['open', 'short.txt'], dir);
    const w = parseWindow(r);
    expectRun(r, {
      status: 0,
      stdout: windowText('short.txt', 3, 1, 3, w.lids, ['alpha', 'beta', 'gamma']),
      stderr: '',
    });
    expect(
      r.stdout.split('\n').filter((l) => l.startsWith('(')),
      r.text,
    ).toEqual([]);
    expectLids(w.lids, r);
  });

  it('PATH:LINE centres the window on LINE', () => {
    const dir = withNumbered(300);
    const r = run(['open', 'a.txt:150'], dir);
    const w = parseWindow(r);
    expect(w.end - w.start + 1, r.text).toBe(100);
    expect(Math.abs(150 - w.start - (w.end - 150)), `line 150 is not in the middle\n${r.text}`).toBeLessThanOrEqual(1);
    expectNumberedWindow(r, w.start, w.end);
  });

  it('PATH:LINE with an odd --window puts LINE exactly in the middle', () => {
    const dir = withNumbered(300);
    expectNumberedWindow(run(['open', 'a.txt:150', '--window', '11'], dir), 145, 155);
  });

  it('PATH:LINE near either end keeps a full window inside the file', () => {
    const dir = withNumbered(300);
    expectNumberedWindow(run(['open', 'a.txt:3'], dir), 1, 100);
    expectNumberedWindow(run(['open', 'a.txt:299'], dir), 201, 300);
    expectNumberedWindow(run(['open', 'a.txt:300'], dir), 201, 300);
  });

  it('PATH:START-END prints exactly those lines, with the counts above and below', () => {
    const dir = withNumbered(300);
    const r = run(['open', 'a.txt:10-20'], dir);
    expectNumberedWindow(r, 10, 20);
    expect(r.stdout.split('\n')[1], r.text).toBe('(9 more lines above)');
    expect(r.stdout.endsWith('|line 20\n(280 more lines below)\n'), r.text).toBe(true);
  });

  it('PATH:START-END stops at the end of the file', () => {
    const dir = withNumbered(300);
    expectNumberedWindow(run(['open', 'a.txt:290-400'], dir), 290, 300);
  });

  it('a range longer than 200 lines is capped at 200, said on stderr with the command that shows the rest', () => {
    const dir = withNumbered(300);
    const cut = (shown: string, asked: string, rest: string) =>
      `rt: lines ${shown} of the ${asked} asked for are shown: a range shows at most 200 lines unless ` +
      `--window N or RT_WINDOW says more\nrt: the rest: rt open a.txt:${rest}\n`;
    expectNumberedWindow(run(['open', 'a.txt:10-400'], dir), 10, 209, 300, 'a.txt', cut('10-209', '10-300', '210-300'));
    expectNumberedWindow(run(['open', 'a.txt:1-300'], dir), 1, 200, 300, 'a.txt', cut('1-200', '1-300', '201-300'));
  });

  it('--window N raises the cap of a range', () => {
    const dir = withNumbered(300);
    expectNumberedWindow(
      run(['open', 'a.txt:10-400', '--window', '250'], dir),
      10,
      259,
      300,
      'a.txt',
      'rt: lines 10-259 of the 10-300 asked for are shown: a range shows at most 250 lines with --window ' +
        '250\nrt: the rest: rt open a.txt:260-300\n',
    );
    expectNumberedWindow(run(['open', 'a.txt:1-300', '--window', '1000'], dir), 1, 300);
  });

  it('--window N also sets the cap of a range below 200', () => {
    const dir = withNumbered(300);
    expectNumberedWindow(
      run(['open', 'a.txt:10-20', '--window', '5'], dir),
      10,
      14,
      300,
      'a.txt',
      'rt: lines 10-14 of the 10-20 asked for are shown: a range shows at most 5 lines with --window 5\nrt: ' +
        'the rest: rt open a.txt:15-20\n',
    );
  });

  it('--window N sets the size of the top window and of a centred window', () => {
    const dir = withNumbered(300);
    expectNumberedWindow(run(['open', 'a.txt', '--window', '10'], dir), 1, 10);
    expectNumberedWindow(run(['open', '--window', '7', 'a.txt'], dir), 1, 7);
    expectNumberedWindow(run(['open', 'a.txt', '--window=3'], dir), 1, 3);
    expectNumberedWindow(run(['open', 'a.txt:100', '--window', '21'], dir), 90, 110);
  });

  it('RT_WINDOW sets the window size; --window wins over it', () => {
    const dir = withNumbered(300);
    expectNumberedWindow(run(['open', 'a.txt'], dir, { env: { RT_WINDOW: '20' } }), 1, 20);
    expectNumberedWindow(run(['open', 'a.txt:100'], dir, { env: { RT_WINDOW: '21' } }), 90, 110);
    expectNumberedWindow(run(['open', 'a.txt', '--window', '7'], dir, { env: { RT_WINDOW: '20' } }), 1, 7);
  });

  it.each([[['--window', '0']], [['--window', 'abc']], [['--window=-3']], [['--window', '1.5']], [['--window', '']]])(
    '--window %j is bad usage (exit 2)',
    (opt) => {
      const dir = withNumbered(300);
      expectFailure(run(['open', 'a.txt', ...opt], dir), 2, /^rt: .*--window/);
    },
  );

  it.each(['abc', '0', '-1', '10x'])('RT_WINDOW=%s is bad usage (exit 2)', (value) => {
    const dir = withNumbered(300);
    expectFailure(run(['open', 'a.txt'], dir, { env: { RT_WINDOW: value } }), 2, /^rt: .*RT_WINDOW/);
  });

  it('the counts always say "lines", even for one line', () => {
    const dir = tempDir();
    write(dir, 't.txt', 'a\nb\nc\n');
    const r = run(['open', 't.txt:2-2'], dir);
    const lid = parseWindow(r).lidAt(2);
    expectRun(r, {
      status: 0,
      stdout: `--- t.txt (lines 2-2 of 3) ---\n(1 more lines above)\n2:${lid}|b\n(1 more lines below)\n`,
      stderr: '',
    });
    expectLids([lid], r);
  });

  it('the path in the header is relative to the working directory', () => {
    const dir = tempDir();
    write(dir, 'src/deep/x.txt', 'x\n');
    fs.mkdirSync(path.join(dir, 'other'));
    const fromTop = run(['open', 'src/deep/x.txt'], dir);
    expect(fromTop.stdout.split('\n')[0], fromTop.text).toBe('--- src/deep/x.txt (lines 1-1 of 1) ---');
    const fromOther = run(['open', '../src/deep/x.txt'], path.join(dir, 'other'));
    expect(fromOther.stdout.split('\n')[0], fromOther.text).toBe('--- ../src/deep/x.txt (lines 1-1 of 1) ---');
    const absolute = run(['open', path.join(dir, 'src/deep/x.txt')], path.join(dir, 'src'));
    expect(absolute.stdout.split('\n')[0], absolute.text).toBe('--- deep/x.txt (lines 1-1 of 1) ---');
    for (const r of [fromTop, fromOther, absolute]) expectRun(r, { status: 0, stderr: '' });
  });
});

describe('rt open: LIDs', () => {
  it('LIDs are 4 lowercase characters of 0-9 a-z without i, l, o, u, always with a letter, unique in the file', () => {
    // Many duplicate lines and lines that look like numbers: every LID still differs, and an
    // LID is never all digits (about 1 in 100 random codes would be).
    const dir = tempDir();
    let text = '';
    for (let i = 0; i < 3000; i++) text += i % 3 === 0 ? '}\n' : i % 3 === 1 ? '\n' : `${i}\n`;
    write(dir, 'dups.txt', text);
    const r = run(['open', 'dups.txt', '--window', '3000'], dir);
    const w = parseWindow(r);
    expectRun(r, { status: 0, stderr: '' });
    expect(w.lines.length, r.text).toBe(3000);
    expectLids(w.lids, r);
  });

  it('a file of 100,000 lines still has 4-character, unique LIDs', () => {
    const dir = tempDir();
    write(dir, 'big.txt', numbered(100_000));
    const r = run(['open', 'big.txt', '--window', '100000'], dir);
    const w = parseWindow(r);
    expectRun(r, { status: 0, stderr: '' });
    expect(w.lines.length, r.text.slice(0, 2000)).toBe(100_000);
    expect(w.start, r.text.slice(0, 2000)).toBe(1);
    expect(w.end, r.text.slice(0, 2000)).toBe(100_000);
    const bad = w.lids.filter((l) => !/^(?=[0-9a-z]*[a-hjkmnp-tv-z])[0-9a-hjkmnp-tv-z]{4}$/.test(l));
    expect(bad.slice(0, 20), 'malformed LIDs').toEqual([]);
    expect(new Set(w.lids).size, 'LIDs repeat').toBe(100_000);
  });

  it('the same line shows the same LID in every window that shows it', () => {
    const dir = withNumbered(300);
    const a = parseWindow(run(['open', 'a.txt'], dir));
    const b = parseWindow(run(['open', 'a.txt:150'], dir));
    const c = parseWindow(run(['open', 'a.txt:50-250'], dir));
    for (const n of [50, 100]) {
      expect(c.lidAt(n)).toBe(a.lidAt(n));
    }
    for (const n of [101, 150, 200]) expect(c.lidAt(n)).toBe(b.lidAt(n));
  });

  it('PATH:LID centres the window on the line holding that LID', () => {
    const dir = withNumbered(300);
    const lid = parseWindow(run(['open', 'a.txt:140-160'], dir)).lidAt(150);
    const byLine = run(['open', 'a.txt:150'], dir);
    const byLid = run(['open', `a.txt:${lid}`], dir);
    expectRun(byLid, { status: 0, stdout: byLine.stdout, stderr: '' });
    expect(parseWindow(byLid).lidAt(150), byLid.text).toBe(lid);
    expectNumberedWindow(run(['open', `a.txt:${lid}`, '--window', '11'], dir), 145, 155);
  });

  it('PATH:LID of a line near the top keeps a full window', () => {
    const dir = withNumbered(300);
    const lid = parseWindow(run(['open', 'a.txt'], dir)).lidAt(2);
    expectNumberedWindow(run(['open', `a.txt:${lid}`], dir), 1, 100);
  });

  it('an LID that is not in the file is refused with exit 3', () => {
    const dir = withNumbered(300);
    const all = new Set(parseWindow(run(['open', 'a.txt', '--window', '300'], dir)).lids);
    const absent = ['zzzz', 'yyyy', 'xxxx', 'wwww', 'vvvv'].find((l) => !all.has(l))!;
    expectFailure(run(['open', `a.txt:${absent}`], dir), 3, new RegExp(`^rt: .*${absent}`));
  });

  it('PATH:LINE:LID, as grep prints a hit, centres the window on that line when the LID is still there', () => {
    const dir = withNumbered(300);
    const lid = parseWindow(run(['open', 'a.txt:140-160'], dir)).lidAt(150);
    const byLine = run(['open', 'a.txt:150'], dir);
    expectRun(run(['open', `a.txt:150:${lid}`], dir), { status: 0, stdout: byLine.stdout, stderr: '' });
    // Copied from grep's output: PATH:LINE:LID.
    const hit = run(['grep-file', '^line 150$', 'a.txt'], dir).stdout.trim();
    expectRun(run(['open', `a.txt:${hit.slice(0, hit.indexOf('|'))}`], dir), {
      status: 0,
      stdout: byLine.stdout,
      stderr: '',
    });
  });

  it(
    'PATH:LINE:LID whose LID is elsewhere now is refused with ' +
      'exit 3, saying where it is; a file named PATH:LINE wins',
    () => {
      const dir = withNumbered(300);
      const lid = parseWindow(run(['open', 'a.txt:140-160'], dir)).lidAt(150);
      write(dir, 'a.txt', `new first line\n${numbered(300)}`);
      const r = run(['open', `a.txt:150:${lid}`], dir);
      expectFailure(r, 3, new RegExp(`^rt: 150:${lid} disagrees with the file: ${lid} is now line 151`));
      expect(r.stderr, r.text).toContain(`rt open a.txt:${lid}`);
      write(dir, 'a.txt:150', 'a file with a colon in its name\n');
      const named = run(['open', `a.txt:150:${lid}`], dir);
      expectFailure(named, 3, new RegExp(`^rt: no line of a\\.txt:150 has LID ${lid}`));
    },
  );

  it('a line number past 2^53 is a line past the end (exit 2), and an END that large is cut to the end', () => {
    const dir = withNumbered(300);
    expectFailure(
      run(['open', 'a.txt:99999999999999999999'], dir),
      2,
      /^rt: line \d+ is past the end of a\.txt \(300 lines\)/,
    );
    expectNumberedWindow(run(['open', 'a.txt:240-99999999999999999999'], dir), 240, 300);
  });

  it('the LID of a line changed since is refused with exit 3', () => {
    const dir = withNumbered(300);
    const lid = parseWindow(run(['open', 'a.txt:140-160'], dir)).lidAt(150);
    write(dir, 'a.txt', numbered(300).replace('line 150\n', 'line 150 changed\n'));
    expectFailure(run(['open', `a.txt:${lid}`], dir), 3, new RegExp(`^rt: .*${lid}`));
  });
});

describe('rt open: bytes', () => {
  it('a CRLF file is shown without the \\r; tabs are printed as they are', () => {
    const dir = tempDir();
    write(dir, 'crlf.txt', Buffer.from('one\r\ntwo\tx\r\n\tthree\r\n', 'latin1'));
    const r = run(['open', 'crlf.txt'], dir);
    const w = parseWindow(r);
    expectRun(r, {
      status: 0,
      stdout: windowText('crlf.txt', 3, 1, 3, w.lids, ['one', 'two\tx', '\tthree']),
      stderr: '',
    });
    expect(r.stdoutBytes.includes(0x0d), r.text).toBe(false);
    expect(r.stdoutBytes.includes(Buffer.from('|two\tx\n')), r.text).toBe(true);
    expectLids(w.lids, r);
  });

  it('a \\r that does not end a line is content, printed as it is', () => {
    const dir = tempDir();
    write(dir, 'cr.txt', Buffer.from('a\rb\nc\r\n', 'latin1'));
    const r = run(['open', 'cr.txt'], dir);
    const w = parseWindow(r);
    expectRun(r, { status: 0, stdout: windowText('cr.txt', 2, 1, 2, w.lids, ['a\rb', 'c']), stderr: '' });
  });

  it('a UTF-8 BOM is not shown as part of line 1', () => {
    const dir = tempDir();
    write(dir, 'bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('first\nsecond\n')]));
    const r = run(['open', 'bom.txt'], dir);
    const w = parseWindow(r);
    expectRun(r, { status: 0, stdout: windowText('bom.txt', 2, 1, 2, w.lids, ['first', 'second']), stderr: '' });
    expect(r.stdoutBytes.includes(Buffer.from([0xef, 0xbb, 0xbf])), r.text).toBe(false);
  });

  it('a missing final newline: the last line is shown like any other', () => {
    const dir = tempDir();
    write(dir, 'nonl.txt', 'a\nb');
    const r = run(['open', 'nonl.txt'], dir);
    const w = parseWindow(r);
    expectRun(r, { status: 0, stdout: windowText('nonl.txt', 2, 1, 2, w.lids, ['a', 'b']), stderr: '' });
  });

  it('BOM, CRLF and no final newline together', () => {
    const dir = tempDir();
    write(dir, 'mix.txt', Buffer.from('\xef\xbb\xbfone\r\ntwo\tx\r\nthree', 'latin1'));
    const r = run(['open', 'mix.txt'], dir);
    const w = parseWindow(r);
    expectRun(r, { status: 0, stdout: windowText('mix.txt', 3, 1, 3, w.lids, ['one', 'two\tx', 'three']), stderr: '' });
  });

  it('bytes that are not valid UTF-8 are printed raw', () => {
    const dir = tempDir();
    // a\xff\xfeb, caf\xe9 (Latin-1), x + a cut UTF-8 sequence
    const content = Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0a, 0x78, 0xc3, 0x0a]);
    write(dir, 'bad.txt', content);
    const r = run(['open', 'bad.txt'], dir);
    expectRun(r, { status: 0, stderr: '' });
    const w = parseWindow(r);
    expectLids(w.lids, r);
    const expected = Buffer.concat([
      Buffer.from('--- bad.txt (lines 1-3 of 3) ---\n'),
      Buffer.from(`1:${w.lids[0]}|`),
      Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x0a]),
      Buffer.from(`2:${w.lids[1]}|`),
      Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      Buffer.from(`3:${w.lids[2]}|`),
      Buffer.from([0x78, 0xc3, 0x0a]),
    ]);
    expect(r.stdoutBytes.toString('hex'), r.text).toBe(expected.toString('hex'));
  });

  it('a line of 5000 characters is shown as its first 2000 and "… [+3000 chars]"', () => {
    const dir = tempDir();
    write(dir, 'long.txt', `short\n${'x'.repeat(5000)}\nafter\n`);
    const r = run(['open', 'long.txt'], dir);
    const w = parseWindow(r);
    expectRun(r, {
      status: 0,
      stdout: windowText('long.txt', 3, 1, 3, w.lids, ['short', `${'x'.repeat(2000)}… [+3000 chars]`, 'after']),
      stderr: '',
    });
    expectLids(w.lids, r);
  });

  it('the cut counts characters, not bytes', () => {
    const dir = tempDir();
    write(dir, 'wide.txt', `${'é'.repeat(2500)}\n${'é'.repeat(1500)}\n${'😀'.repeat(2100)}\n`);
    const r = run(['open', 'wide.txt'], dir);
    const w = parseWindow(r);
    expectRun(r, {
      status: 0,
      stdout: windowText('wide.txt', 3, 1, 3, w.lids, [
        `${'é'.repeat(2000)}… [+500 chars]`,
        'é'.repeat(1500),
        `${'😀'.repeat(2000)}… [+100 chars]`,
      ]),
      stderr: '',
    });
  });

  it('a line of exactly 2000 characters is not cut; 2001 is', () => {
    const dir = tempDir();
    write(dir, 'edge.txt', `${'y'.repeat(2000)}\n${'z'.repeat(2001)}\n`);
    const r = run(['open', 'edge.txt'], dir);
    const w = parseWindow(r);
    expectRun(r, {
      status: 0,
      stdout: windowText('edge.txt', 2, 1, 2, w.lids, ['y'.repeat(2000), `${'z'.repeat(2000)}… [+1 chars]`]),
      stderr: '',
    });
  });

  it('reading never changes a file: bytes, mtime, mode and inode stay the same', () => {
    const dir = tempDir();
    const fixtures: Record<string, Buffer> = {
      'crlf.txt': Buffer.from('one\r\ntwo\tx\r\n', 'latin1'),
      'bom.txt': Buffer.from('\xef\xbb\xbfa\nb\n', 'latin1'),
      'nonl.txt': Buffer.from('a\nb'),
      'bad.txt': Buffer.from([0x61, 0xff, 0x0a, 0xc3, 0x0a]),
      'long.txt': Buffer.from(`${'x'.repeat(5000)}\n`),
      'empty.txt': Buffer.alloc(0),
      'nl.txt': Buffer.from('\n'),
      'many.txt': Buffer.from(numbered(3000)),
    };
    for (const [name, bytes] of Object.entries(fixtures)) {
      const file = write(dir, name, bytes);
      fs.chmodSync(file, 0o640);
      age(file, 7200);
    }
    const before = Object.fromEntries(Object.keys(fixtures).map((name) => [name, snapshot(path.join(dir, name))]));
    for (const name of Object.keys(fixtures)) {
      for (const args of [
        ['open', name],
        ['open', `${name}:1`],
        ['open', `${name}:1-2`],
        ['scroll', name, '+'],
        ['scroll', name, '-'],
        ['open', name, '--window', '1'],
      ]) {
        const r = run(args, dir);
        expectCleanStderr(r);
        expect(r.status === 0 || r.status === 2, r.text).toBe(true); // :1 and :1-2 are past the end of an empty file
      }
      const lid = parseWindow(run(['open', name], dir)).lids[0];
      if (lid) expectRun(run(['open', `${name}:${lid}`], dir), { status: 0, stderr: '' });
    }
    for (const name of Object.keys(fixtures)) {
      const after = snapshot(path.join(dir, name));
      expect(after.bytes.equals(before[name]!.bytes), `${name}: bytes changed`).toBe(true);
      expect(after.mtimeNs, `${name}: mtime changed`).toBe(before[name]!.mtimeNs);
      expect(after.mode, `${name}: mode changed`).toBe(before[name]!.mode);
      expect(after.ino, `${name}: replaced (inode changed)`).toBe(before[name]!.ino);
    }
    expect(fs.readdirSync(dir).sort(), 'files were added next to the fixtures').toEqual(
      [...Object.keys(fixtures), '.rt'].sort(),
    );
  });

  it('opening an unchanged file again (from saved state) prints the same bytes', () => {
    // Files last modified an hour ago: the second open may use the saved index instead of
    // reading the whole file again; what it prints must not differ.
    const dir = tempDir();
    const fixtures: Record<string, Buffer> = {
      'mix.txt': Buffer.from('\xef\xbb\xbfone\r\ntwo\tx\r\nthree', 'latin1'),
      'bad.txt': Buffer.from([0x61, 0xff, 0x0a, 0xc3, 0x0a]),
      'long.txt': Buffer.from(`a\n${'x'.repeat(5000)}\nb\n`),
      'nl.txt': Buffer.from('\n'),
      'big.txt': Buffer.from(numbered(5000)),
    };
    for (const [name, bytes] of Object.entries(fixtures)) age(write(dir, name, bytes));
    for (const name of Object.keys(fixtures)) {
      for (const target of [name, `${name}:2`, `${name}:1-3`, `${name}:1-1`]) {
        if (name === 'nl.txt' && target !== name && target !== `${name}:1-1`) continue;
        const first = run(['open', target], dir);
        const second = run(['open', target], dir);
        const third = run(['open', target], dir);
        expectRun(first, { status: 0, stderr: '' });
        for (const again of [second, third]) {
          expectRun(again, { status: 0, stdout: first.stdout, stderr: '' });
          expect(again.stdoutBytes.equals(first.stdoutBytes), again.text).toBe(true);
        }
      }
    }
    const deep = run(['open', 'big.txt:4000-4003'], dir);
    expectNumberedWindow(deep, 4000, 4003, 5000, 'big.txt');
    expectNumberedWindow(run(['open', 'big.txt:4000-4003'], dir), 4000, 4003, 5000, 'big.txt');
    expectNumberedWindow(run(['open', 'big.txt:5000'], dir), 4901, 5000, 5000, 'big.txt');
  });
});

describe('rt open: special files', () => {
  it('an empty file prints its header only, exit 0', () => {
    const dir = tempDir();
    write(dir, 'empty.txt', Buffer.alloc(0));
    expectRun(run(['open', 'empty.txt'], dir), { status: 0, stdout: '--- empty.txt (empty file) ---\n', stderr: '' });
  });

  it('a file holding only "\\n" has one empty line', () => {
    const dir = tempDir();
    write(dir, 'nl.txt', '\n');
    const r = run(['open', 'nl.txt'], dir);
    const lid = parseWindow(r).lids[0] ?? '';
    expectRun(r, { status: 0, stdout: `--- nl.txt (lines 1-1 of 1) ---\n1:${lid}|\n`, stderr: '' });
    expectLids([lid], r);
  });

  it('a file holding only "\\r\\n" has one empty line', () => {
    const dir = tempDir();
    write(dir, 'crlf.txt', '\r\n');
    const r = run(['open', 'crlf.txt'], dir);
    const lid = parseWindow(r).lids[0] ?? '';
    expectRun(r, { status: 0, stdout: `--- crlf.txt (lines 1-1 of 1) ---\n1:${lid}|\n`, stderr: '' });
  });

  it('a line past the end is exit 2, with an rt: message and nothing on stdout', () => {
    const dir = withNumbered(300);
    expectFailure(run(['open', 'a.txt:301'], dir), 2, /^rt: .*301.*(\n.*)*$/);
    expectFailure(run(['open', 'a.txt:400-500'], dir), 2, /^rt: .*400/);
    write(dir, 'empty.txt', '');
    expectFailure(run(['open', 'empty.txt:1'], dir), 2);
  });

  it('a file named with a final / is refused (exit 4): the / names a folder, as the system reads it', () => {
    const dir = withNumbered(5);
    expectFailure(run(['open', 'a.txt/'], dir), 4, /^rt: a\.txt\/ is not a folder/);
    expectFailure(run(['open', 'a.txt/:2'], dir), 4, /^rt: a\.txt\/ is not a folder/);
    expectFailure(
      run(['open', 'a.txt//'], dir),
      4,
      /^rt: a\.txt\/\/ is not a folder.*\nrt: name the file without it: a\.txt\n$/,
    );
    expectFailure(run(['edit', 'a.txt/', '2'], dir, { input: 'x\n' }), 4, /^rt: a\.txt\/ is not a folder/);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe(numbered(5));
  });

  it('line 0 and a backwards range are bad usage (exit 2)', () => {
    const dir = withNumbered(300);
    expectFailure(run(['open', 'a.txt:0'], dir), 2);
    expectFailure(run(['open', 'a.txt:20-10'], dir), 2);
  });

  it('a binary file (a NUL byte) is refused with exit 4', () => {
    const dir = tempDir();
    write(
      dir,
      'bin.dat',
      Buffer.concat([Buffer.from(numbered(10)), Buffer.from([0x00, 0x01, 0x02]), Buffer.from('\ntail\n')]),
    );
    expectFailure(run(['open', 'bin.dat'], dir), 4, /^rt: .*bin\.dat/);
    expectFailure(run(['open', 'bin.dat:2'], dir), 4);
  });

  it('a file that is mostly control bytes is refused as binary (exit 4)', () => {
    const dir = tempDir();
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = 1 + (i % 7); // 0x01-0x07, no NUL
    write(dir, 'ctl.bin', bytes);
    expectFailure(run(['open', 'ctl.bin'], dir), 4);
  });

  it('a directory lists its entries (rt open DIR); scroll of one is refused with exit 4', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'sub', 'f.txt'), 'x\n');
    const r = run(['open', 'sub'], dir);
    expect(r.status, r.text).toBe(0);
    expect(r.stdout).toBe('--- sub (1 entry) ---\nf.txt\t1 line\n');
    expectFailure(run(['scroll', 'sub', '+'], dir), 4, /^rt: .*sub/);
  });

  it('a FIFO (not a regular file) is refused with exit 4, without hanging', () => {
    const dir = tempDir();
    const made = spawnSync('mkfifo', [path.join(dir, 'pipe')]);
    expect(made.status, 'mkfifo failed').toBe(0);
    expectFailure(run(['open', 'pipe'], dir), 4, /^rt: .*pipe/);
  });

  it('a file rt may not read is refused with exit 4', (ctx) => {
    const as = unprivileged();
    // As root, chmod 000 does not stop root from reading: run rt as another user, or skip.
    if (as === undefined) return ctx.skip();
    const dir = tempDir();
    fs.chmodSync(dir, 0o777);
    const file = write(dir, 'secret.txt', 'secret\n');
    fs.chmodSync(file, 0o000);
    const r = run(['open', 'secret.txt'], dir, { ...as });
    expectFailure(r, 4, /^rt: .*secret\.txt/);
    expect(r.stderr, r.text).not.toMatch(/internal error/);
  });

  it('a missing file is exit 4 and the message names a near existing path', () => {
    const dir = tempRepo(); // so that src/ is inside the root
    write(dir, 'a.txt', 'x\n');
    write(dir, 'src/main.ts', 'y\n');
    expectFailure(run(['open', 'a.tx'], dir), 4, /a\.txt/);
    expectFailure(run(['open', 'a.tx:3'], dir), 4, /a\.txt/);
    expectFailure(run(['open', 'src/mian.ts'], dir), 4, /src\/main\.ts/);
    expectFailure(run(['open', 'lib/main.ts'], dir), 4, /src\/main\.ts/);
    expectFailure(run(['open', '../a.tx'], path.join(dir, 'src')), 4, /\.\.\/a\.txt/);
    expectFailure(run(['open', 'nothing-like-it.q'], dir), 4);
  });

  it('paths outside the root are refused with exit 4: ../x, an absolute path, symbolic links', () => {
    const base = tempDir();
    const root = path.join(base, 'root');
    fs.mkdirSync(root);
    write(base, 'x.txt', 'secret\n');
    write(base, 'outdir/f.txt', 'secret\n');
    write(root, 'in.txt', 'inside\n');
    fs.symlinkSync(path.join(base, 'x.txt'), path.join(root, 'link.txt'));
    fs.symlinkSync('../outdir', path.join(root, 'ldir'));
    const secret = snapshot(path.join(base, 'x.txt'));
    for (const target of [
      '../x.txt',
      '../x.txt:1',
      path.join(base, 'x.txt'),
      'link.txt',
      'link.txt:1',
      'ldir/f.txt',
      '../outdir/f.txt',
      '../missing.txt',
      'in.txt/../../x.txt',
    ]) {
      const r = run(['open', target], root);
      expectFailure(r, 4);
      expect(r.stdout + r.stderr, r.text).not.toContain('secret');
    }
    expect(snapshot(path.join(base, 'x.txt')).bytes.equals(secret.bytes)).toBe(true);
    expect(fs.existsSync(path.join(base, '.rt')), 'state written outside the root').toBe(false);
    // A link inside the root to a file inside the root is fine.
    fs.symlinkSync('in.txt', path.join(root, 'alias.txt'));
    const ok = run(['open', 'alias.txt'], root);
    expectRun(ok, { status: 0, stdout: /^--- \S+ \(lines 1-1 of 1\) ---\n1:[0-9a-z]{4}\|inside\n$/, stderr: '' });
  });

  it('rt refuses to read its own state folder (exit 4)', () => {
    const dir = tempDir();
    write(dir, 'a.txt', 'x\n');
    expectRun(run(['open', 'a.txt'], dir), { status: 0, stderr: '' });
    const packFiles = fs.readdirSync(path.join(dir, '.rt/pack'));
    expect(packFiles.filter((f) => f.startsWith('pack-'))).toHaveLength(1);
    fs.symlinkSync('.rt/.gitignore', path.join(dir, 'sneaky'));
    const targets = [
      '.rt/.gitignore',
      '.rt',
      '.rt/',
      './.rt/../.rt/.gitignore',
      'sneaky',
      '.rt/pack',
      ...packFiles.map((f) => `.rt/pack/${f}`),
    ];
    for (const target of targets) expectFailure(run(['open', target], dir), 4);
  });

  it('a refused command writes no state: missing, binary, outside the root, a bad scroll direction', () => {
    // All or nothing: a refused command writes nothing, to the file or to the state.
    const dir = withNumbered(300);
    write(dir, 'bin.dat', Buffer.from([0x61, 0x00, 0x62]));
    for (const args of [
      ['open', 'bin.dat'],
      ['open', 'missing.txt'],
      ['open', '../x.txt'],
      ['scroll', 'a.txt', 'sideways'],
      ['open', 'a.txt:0'],
      ['bogus', 'a.txt'],
    ]) {
      const r = run(args, dir);
      expect(r.status, r.text).not.toBe(0);
      expectCleanStderr(r);
      expect(fs.existsSync(path.join(dir, '.rt')), `.rt/ was written by a refused command\n${r.text}`).toBe(false);
    }
  });

  // BUG: open indexes the file (and saves the index) before it checks the line / LID.
  it('a refused command writes no state: a line past the end', () => {
    const dir = withNumbered(300);
    const r = run(['open', 'a.txt:301'], dir);
    expectFailure(r, 2);
    expect(fs.existsSync(path.join(dir, '.rt')), `.rt/ was written by a refused command\n${r.text}`).toBe(false);
  });

  it('a refused command writes no state: --window 0', () => {
    const dir = withNumbered(300);
    const r = run(['open', 'a.txt', '--window', '0'], dir);
    expectFailure(r, 2);
    expect(fs.existsSync(path.join(dir, '.rt')), `.rt/ was written by a refused command\n${r.text}`).toBe(false);
  });

  it('a refused command writes no state: an LID not in the file', () => {
    const dir = withNumbered(300);
    const r = run(['open', 'a.txt:zzzz'], dir);
    expectFailure(r, 3);
    expect(fs.existsSync(path.join(dir, '.rt')), `.rt/ was written by a refused command\n${r.text}`).toBe(false);
  });
});

describe('errors', () => {
  const dirWithFiles = () => {
    const dir = withNumbered(300);
    write(dir, 'bin.dat', Buffer.from([0x00, 0x01]));
    fs.mkdirSync(path.join(dir, 'sub'));
    return dir;
  };

  it.each<[string[], number]>([
    [['bogus'], 2],
    [['bogus', 'a.txt'], 2],
    [['--bogus'], 2],
    [['open', '--bogus', 'a.txt'], 2],
    [['open', 'a.txt', '-w', '3'], 2],
    [['open'], 2],
    [['open', 'a.txt', 'extra'], 2],
    [['open', 'a.txt', '--window'], 2],
    [['scroll'], 2],
    [['scroll', 'a.txt', 'sideways'], 2],
    [['scroll', 'a.txt', '--window', '0'], 2],
    [['open', 'a.txt:0'], 2],
    [['open', 'a.txt:9-3'], 2],
    [['open', 'a.txt:301'], 2],
    [['--root', 'no-such-dir', 'open', 'a.txt'], 2],
    [['open', 'missing.txt'], 4],
    [['open', 'bin.dat'], 4],
    [['scroll', 'sub', '+'], 4],
    [['open', '../outside.txt'], 4],
    [['open', '/etc/hostname'], 4],
    [['scroll', 'missing.txt', '+'], 4],
    [['scroll', 'bin.dat', '+'], 4],
    [['open', 'a.txt:zzzz'], 3],
  ])('rt %j exits %i with only rt: lines on stderr, no stack trace, nothing on stdout', (args, status) => {
    const dir = dirWithFiles();
    const r = run(args, dir);
    expectFailure(r, status);
    expect(stderrLines(r).length, r.text).toBeGreaterThanOrEqual(1);
  });

  it('rt with no command is bad usage (exit 2) and its stderr is still rt: lines', () => {
    const dir = tempDir();
    const r = run([], dir);
    expectRun(r, { status: 2, stdout: '', stderr: /^rt: / });
  });

  it('--help and --version succeed on stdout', () => {
    const dir = tempDir();
    expectRun(run(['--help'], dir), { status: 0, stdout: /open/, stderr: '' });
    expectRun(run(['open', '--help'], dir), { status: 0, stdout: /--window/, stderr: '' });
    expectRun(run(['--version'], dir), { status: 0, stdout: /^\d+\.\d+\.\d+/, stderr: '' });
  });

  it('an error message says what to do instead (a second rt: line or a hint in the first)', () => {
    const dir = withNumbered(300);
    for (const args of [
      ['open', 'a.txt:301'],
      ['open', 'a.tx'],
    ]) {
      const r = run(args, dir);
      expect(stderrLines(r).length, r.text).toBeGreaterThanOrEqual(2);
    }
  });
});
