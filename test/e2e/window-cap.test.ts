// The most lines a range of rt open shows (at most 200 unless --window; RT_WINDOW counts
// as --window), what is said when a range is cut, and long windows. Run through the built binary.

import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, lines, numbered, parseWindow, run, tempDir, windowText, write } from './harness.js';

afterAll(cleanup);

/** Expects the window of lines start..end of a `numbered(total)` f.txt, and `stderr`. */
function expectNumbered(
  args: string[],
  dir: string,
  env: Record<string, string>,
  total: number,
  start: number,
  end: number,
  stderr: string,
): void {
  const r = run(args, dir, { env });
  expectRun(r, {
    status: 0,
    stdout: windowText('f.txt', total, start, end, parseWindow(r).lids, lines(start, end)),
    stderr,
  });
}

describe('the most lines a range shows (found by a user trial: RT_WINDOW=500 stopped at 200, --window 500 not)', () => {
  const dir = tempDir();
  write(dir, 'f.txt', numbered(1000));

  it('RT_WINDOW counts as --window: a range of 400 lines is shown whole with either', () => {
    expectNumbered(['open', 'f.txt:1-400'], dir, { RT_WINDOW: '500' }, 1000, 1, 400, '');
    expectNumbered(['open', 'f.txt:1-400', '--window', '500'], dir, {}, 1000, 1, 400, '');
    // --window wins over RT_WINDOW, as for the size of a window.
    expectNumbered(['open', 'f.txt:1-400', '--window', '500'], dir, { RT_WINDOW: '50' }, 1000, 1, 400, '');
  });

  it('a range cut to the cap says so on stderr, with the command that shows the rest, which does', () => {
    expectNumbered(
      ['open', 'f.txt:1-400'],
      dir,
      {},
      1000,
      1,
      200,
      'rt: lines 1-200 of the 1-400 asked for are shown: a range shows at most 200 lines unless --window N or ' +
        'RT_WINDOW says more\nrt: the rest: rt open f.txt:201-400\n',
    );
    expectNumbered(['open', 'f.txt:201-400'], dir, {}, 1000, 201, 400, '');
    expectNumbered(
      ['open', 'f.txt:1-900', '--window', '300'],
      dir,
      {},
      1000,
      1,
      300,
      'rt: lines 1-300 of the 1-900 asked for are shown: a range shows at most 300 lines with --window ' +
        '300\nrt: the rest: rt open f.txt:301-900 --window 600\n',
    );
    expectNumbered(
      ['open', 'f.txt:101-900'],
      dir,
      { RT_WINDOW: '50' },
      1000,
      101,
      150,
      'rt: lines 101-150 of the 101-900 asked for are shown: a range shows at most 50 lines with ' +
        'RT_WINDOW=50\nrt: the rest: rt open f.txt:151-900 --window 750\n',
    );
    expectNumbered(['open', 'f.txt:151-900', '--window', '750'], dir, { RT_WINDOW: '50' }, 1000, 151, 900, '');
    // Cut by the end of the file only: nothing to say.
    expectNumbered(['open', 'f.txt:901-5000'], dir, {}, 1000, 901, 1000, '');
  });

  it('scroll remembers a --window, not RT_WINDOW (which applies to every run anyway)', () => {
    const d = tempDir();
    write(d, 'f.txt', numbered(1000));
    expectNumbered(['open', 'f.txt:1-400'], d, { RT_WINDOW: '500' }, 1000, 1, 400, '');
    expectNumbered(['scroll', 'f.txt'], d, {}, 1000, 399, 498, '');
    expectNumbered(['open', 'f.txt:1-400', '--window', '500'], d, {}, 1000, 1, 400, '');
    expectNumbered(['scroll', 'f.txt'], d, {}, 1000, 399, 898, '');
  });
});

describe('long windows, printed as they are read', () => {
  it('a window of 30,000 lines: exactly the lines, in text and in --json', () => {
    const dir = tempDir();
    write(dir, 'f.txt', numbered(50_000));
    expectNumbered(['open', 'f.txt', '--window', '30000'], dir, {}, 50_000, 1, 30_000, '');
    expectNumbered(['open', 'f.txt:5000-40000', '--window', '40000'], dir, {}, 50_000, 5000, 40_000, '');
    const r = run(['open', 'f.txt:5000-40000', '--window', '40000', '--json'], dir);
    expect(r.status, r.text).toBe(0);
    expect(r.stdout.split('\n')).toHaveLength(2);
    const doc = JSON.parse(r.stdout);
    expect({ ...doc, lines: undefined }).toEqual({
      command: 'open',
      path: 'f.txt',
      total: 50_000,
      start: 5000,
      end: 40_000,
      above: 4999,
      below: 10_000,
      lines: undefined,
    });
    expect(doc.lines.map((l: { n: number; text: string }) => `${l.n}:${l.text}`)).toEqual(
      lines(5000, 40_000).map((t, i) => `${5000 + i}:${t}`),
    );
  });
});
