// --indent auto on edit, insert and apply: the new lines moved as a block to the
// indentation around them; without it, byte for byte.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, openWindow, run, tempRepo, write, repoWith as repo } from './harness.js';

afterAll(cleanup);

const readText = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel)).toString('utf8');

const PY =
  'class Shop:\n    def buy(self, item):\n        if item:\n            self.items.append(item)\n        return self\n';

describe('--indent auto', () => {
  it('edit: the block takes the indentation of the lines it replaces, its own relative indentation kept', () => {
    const dir = tempRepo();
    write(dir, 'shop.py', PY);
    const w = openWindow(dir, 'shop.py');
    const r = run(['edit', 'shop.py', w.lidAt(3), w.lidAt(4), '--indent', 'auto'], dir, {
      input: 'if item and item.ok:\n    self.items.append(item)\n',
    });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'shop.py'), 'utf8')).toBe(
      'class Shop:\n    def buy(self, item):\n        if item and item.ok:\n            ' +
        'self.items.append(item)\n        return self\n',
    );
  });

  it('insert and apply with RT_INDENT=auto; a file indented with tabs gets tabs', () => {
    const dir = tempRepo();
    write(dir, 'f.go', 'package f\n\nfunc f() {\n\tif x {\n\t\tgo()\n\t}\n}\n');
    const w = openWindow(dir, 'f.go');
    const r = run(['insert', 'f.go', w.lidAt(7)], dir, {
      input: 'if y {\n    stop()\n}\n',
      env: { RT_INDENT: 'auto' },
    });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'f.go'), 'utf8')).toBe(
      'package f\n\nfunc f() {\n\tif x {\n\t\tgo()\n\t}\n\tif y {\n\t\tstop()\n\t}\n}\n',
    );
    const w2 = openWindow(dir, 'f.go');
    const patch = `*** Begin Patch\n*** Update File: f.go\n@@ insert after ${w2.lidAt(5)}\n+log()\n*** End Patch\n`;
    expect(run(['apply', '--indent', 'auto'], dir, { input: patch }).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'f.go'), 'utf8')).toContain('\t\tgo()\n\t\tlog()\n\t}\n');
  });

  it('without it (or with --indent keep) the text is taken byte for byte', () => {
    const dir = tempRepo();
    write(dir, 'shop.py', PY);
    const w = openWindow(dir, 'shop.py');
    const r = run(['insert', 'shop.py', w.lidAt(5), '--no-check'], dir, { input: 'x = 1\n' });
    expect(r.status, r.text).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'shop.py'), 'utf8')).toContain('\nx = 1\n        return self\n');
    expect(run(['insert', 'shop.py', '1', '--indent', 'sideways', '--force'], dir, { input: 'y\n' }).status).toBe(2);
  });
});

describe('--indent auto: the end of a Python body', () => {
  it(
    'a line inserted right after the last line of a Python function body stays ' +
      'in the body (not moved to the top level by the def below the blank lines)',
    () => {
      const py = 'def f():\n    a = 1\n    b = 2\n\n\ndef g():\n    pass\n';
      const dir = repo({ 'p.py': py });
      const w = openWindow(dir, 'p.py');
      const r = run(['insert', 'p.py', w.lidAt(3), '--after', '--indent', 'auto'], dir, { input: 'c = 3\n' });
      expect(r.status, r.text).toBe(0);
      expect(readText(dir, 'p.py')).toBe('def f():\n    a = 1\n    b = 2\n    c = 3\n\n\ndef g():\n    pass\n');
    },
  );
});
