// A file name holding a newline: printed escaped (new\x0aline.txt) so that it stays one line, and
// named in the commands rt suggests in the form bash takes, $'new\nline.txt'. Run through the
// built binary, the suggestions pasted into bash.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, cleanup, expectRun, RT_BIN, run, stderrLines, tempDir, write } from './harness.js';

afterAll(cleanup);

/** Runs a command line printed by rt (starting with "rt ") through bash, as a user pastes it. */
function pasted(command: string, cwd: string) {
  const r = spawnSync('bash', ['-c', `rt() { "${process.execPath}" "${RT_BIN}" "$@"; }; ${command}`], {
    cwd,
    env: cleanEnv(),
  });
  return { status: r.status, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
}

describe(
  'a file name with a newline (found by a user trial: ' + "the hint said 'new\\x0aline.txt', which names nothing)",
  () => {
    const dir = tempDir();
    write(dir, 'new\nline.txt', 'one\ntwo\n');

    it('is printed escaped, and opening the printed name suggests the form that works', () => {
      expectRun(run(['find', 'line'], dir), { status: 0, stdout: 'new\\x0aline.txt\n', stderr: '' });
      const r = run(['open', 'new\\x0aline.txt'], dir);
      expectRun(r, {
        status: 4,
        stdout: '',
        stderr: "rt: no such file: new\\x0aline.txt\nrt: closest existing: $'new\\nline.txt'\n",
      });
      const j = run(['open', 'new\\x0aline.txt', '--json'], dir);
      expect(JSON.parse(j.stdout).error.suggestions, j.text).toEqual(['new\nline.txt']);
      const opened = pasted(`rt open ${stderrLines(r)[1]!.replace('rt: closest existing: ', '')}`, dir);
      expect(opened.status, opened.stderr).toBe(0);
      expect(opened.stdout).toMatch(/^--- new\\x0aline\.txt \(lines 1-2 of 2\) ---\n1:[0-9a-z]{4}\|one\n/);
    });

    it('the commands in other messages name it so too, and work when pasted', () => {
      const r = run(['open', 'new\nline.txt:9'], dir);
      expectRun(r, {
        status: 2,
        stdout: '',
        stderr:
          "rt: line 9 is past the end of new\\x0aline.txt (2 lines)\nrt: its last line: rt open $'new\\nline.txt:2'\n",
      });
      const again = pasted(stderrLines(r)[1]!.replace('rt: its last line: ', ''), dir);
      expect(again.status, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/\n2:[0-9a-z]{4}\|two\n$/);
      write(dir, 'big\nfile.txt', Array.from({ length: 300 }, (_, i) => `l${i + 1}\n`).join(''));
      const cut = run(['open', 'big\nfile.txt:1-300'], dir);
      expect(stderrLines(cut)[1], cut.text).toBe("rt: the rest: rt open $'big\\nfile.txt:201-300'");
      expect(pasted(stderrLines(cut)[1]!.replace('rt: the rest: ', ''), dir).stdout).toMatch(
        /^--- big\\x0afile\.txt \(lines 201-300 of 300\) ---\n/,
      );
      expect(fs.existsSync(path.join(dir, 'big\nfile.txt'))).toBe(true);
    });
  },
);
