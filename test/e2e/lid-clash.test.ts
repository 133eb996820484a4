// A past bug: without saved state, a line new to the file took the LID of a line still
// there: a line whose first candidate had no letter (or clashed) sat on a later candidate, and a
// new line whose first candidate was that code claimed it first. Candidates without a letter are
// now skipped, and a code two lines claim at any of their levels is neither's.
// `const value = 18;` sat on its second candidate; `const other = 1799089;` had it first.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, parseWindow, run, tempRepo } from '../e2e/harness.js';

afterAll(cleanup);

const BEFORE = '// top\nconst value = 18;\n// bottom\n';
const AFTER = '// top\nconst value = 18;\n// bottom\nconst other = 1799089;\n';

describe('an unchanged line keeps its LID when a line is added elsewhere, without state', () => {
  it('RT_STATE=off: the LID printed for `const value = 18;` edits that line or is refused', () => {
    const dir = tempRepo();
    const env = { RT_STATE: 'off' };
    fs.writeFileSync(path.join(dir, 'f.js'), BEFORE);
    const lid = parseWindow(run(['open', 'f.js'], dir, { env })).lidAt(2);
    fs.writeFileSync(path.join(dir, 'f.js'), AFTER); // outside rt: one line appended
    const r = run(['edit', 'f.js', lid], dir, { env, input: 'const value = 19;\n' });
    const now = fs.readFileSync(path.join(dir, 'f.js'), 'utf8');
    if (r.status === 0) expect(now, r.text).toBe('// top\nconst value = 19;\n// bottom\nconst other = 1799089;\n');
    else expect(now, r.text).toBe(AFTER);
  });

  it('state deleted: the LID printed for `const value = 18;` names no other line after the file is read again', () => {
    const dir = tempRepo();
    fs.writeFileSync(path.join(dir, 'f.js'), BEFORE);
    const lid = parseWindow(run(['open', 'f.js'], dir)).lidAt(2);
    fs.writeFileSync(path.join(dir, 'f.js'), AFTER);
    fs.rmSync(path.join(dir, '.rt'), { recursive: true });
    const again = parseWindow(run(['open', 'f.js'], dir));
    const holder = again.lines.find((l) => l.lid === lid);
    expect(holder === undefined || holder.content === 'const value = 18;', JSON.stringify(again.lines)).toBe(true);
  });
});
