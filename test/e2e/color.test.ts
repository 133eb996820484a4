// Colour only for a terminal: never in a pipe (unless forced), never in JSON; NO_COLOR,
// FORCE_COLOR and --color auto|always|never decide as the man page says.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, RT_BIN, run, tempDir } from './harness.js';

afterAll(cleanup);

const ESC = '\u001b[';

describe('colour', () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'f.txt'), 'alpha\nbeta\n');

  const cases: Array<[string, string[], Record<string, string>, boolean]> = [
    ['a pipe gets no colour', ['open', 'f.txt'], {}, false],
    ['--color always colours a pipe', ['open', 'f.txt', '--color', 'always'], {}, true],
    ['FORCE_COLOR colours a pipe', ['open', 'f.txt'], { FORCE_COLOR: '1' }, true],
    ['NO_COLOR wins over FORCE_COLOR', ['open', 'f.txt'], { NO_COLOR: '1', FORCE_COLOR: '1' }, false],
    ['--color always wins over NO_COLOR', ['open', 'f.txt', '--color', 'always'], { NO_COLOR: '1' }, true],
    ['--color never wins over FORCE_COLOR', ['open', 'f.txt', '--color', 'never'], { FORCE_COLOR: '1' }, false],
    ['--json is never coloured', ['open', 'f.txt', '--json', '--color', 'always'], {}, false],
    ['grep hits are coloured when asked', ['grep', 'alpha', '--color', 'always'], {}, true],
  ];
  for (const [name, args, env, coloured] of cases) {
    it(name, () => {
      const r = run(args, dir, { env });
      expect(r.status, r.text).toBe(0);
      expect(r.stdout.includes(ESC), r.text).toBe(coloured);
      // Colour never changes the text itself.
      expect(r.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toBe(
        run(
          args.filter((a, i) => a !== '--color' && args[i - 1] !== '--color'),
          dir,
        ).stdout,
      );
    });
  }

  it('an invalid --color value is bad usage', () => {
    const r = run(['open', 'f.txt', '--color', 'sometimes'], dir);
    expect(r.status, r.text).toBe(2);
  });

  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)('a terminal gets colour, and a dumb one does not', () => {
    const inTty = (term: string) =>
      spawnSync('script', ['-qec', `${process.execPath} ${RT_BIN} open f.txt`, '/dev/null'], {
        cwd: dir,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, TERM: term },
      }).stdout;
    expect(inTty('xterm')).toContain(ESC);
    expect(inTty('dumb')).not.toContain(ESC);
  });
});
