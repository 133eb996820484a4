// grep -p (--function) and -W (--function-context): the definition enclosing hits, from the
// file's outline where rt has its grammar, else by git grep's rule, printed as PATH:N:LID=CONTENT;
// in --json, "definition" says how it was found. Those lines count as shown.

import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, expectRun, parseWindow, run, tempRepo, write } from './harness.js';

afterAll(cleanup);

const PY = [
  'import os',
  '',
  '',
  'class Cart:',
  '    """A cart."""',
  '',
  '    @property',
  '    def total(self):',
  '        return sum(i.price for i in self.items)',
  '',
  '    def add(self, item):',
  '        self.items.append(item)',
  '        return self.total',
  '',
  '',
  'def helper():',
  '    return Cart().total',
  '',
].join('\n');

const TS = [
  '/** Sums. */',
  'export const sum = (xs: number[]) => {',
  '  return xs.reduce((a, b) => a + b, 0);',
  '};',
  '',
  'export class Shelf {',
  '  count(): number {',
  '    return sum([1]);',
  '  }',
  '}',
  '',
].join('\n');

const MD = '# Guide\n\nintro sum\n\n## Set-up\n\nrun sum here\n';
const TXT = 'intro\nfoo: sum\n  indented sum\nbar:\n  sum here\n';

/** The LIDs rt gives `content` (the same in any folder: fresh LIDs depend on the bytes), without showing them here. */
function lidsOf(name: string, content: string | Buffer): readonly string[] {
  const elsewhere = tempRepo();
  write(elsewhere, name, content);
  return parseWindow(run(['open', name], elsewhere)).lids;
}

function repo(): string {
  const dir = tempRepo();
  write(dir, 'cart.py', PY);
  write(dir, 'shelf.ts', TS);
  write(dir, 'guide.md', MD);
  write(dir, 'notes.txt', TXT);
  return dir;
}

const P = lidsOf('cart.py', PY);
const T = lidsOf('shelf.ts', TS);
const M = lidsOf('guide.md', MD);
const N = lidsOf('notes.txt', TXT);

describe('grep -p', () => {
  it("prints the innermost enclosing definition's line once before its hits (outline, headings, git's rule)", () => {
    const dir = repo();
    expectRun(run(['grep', '-p', 'total', 'cart.py'], dir), {
      status: 0,
      stdout:
        `cart.py:4:${P[3]}=class Cart:\n` +
        `cart.py:8:${P[7]}|    def total(self):\n` +
        `cart.py:11:${P[10]}=    def add(self, item):\n` +
        `cart.py:13:${P[12]}|        return self.total\n` +
        `cart.py:16:${P[15]}=def helper():\n` +
        `cart.py:17:${P[16]}|    return Cart().total\n`,
      stderr: '',
    });
    expectRun(run(['grep', '-p', '-F', 'sum', 'shelf.ts', 'guide.md', 'notes.txt'], dir), {
      status: 0,
      stdout:
        `guide.md:1:${M[0]}=# Guide\n` +
        `guide.md:3:${M[2]}|intro sum\n` +
        `guide.md:5:${M[4]}=## Set-up\n` +
        `guide.md:7:${M[6]}|run sum here\n` +
        // git grep's rule: the nearest line above starting with a letter, even for a hit on such a line.
        `notes.txt:1:${N[0]}=intro\n` +
        `notes.txt:2:${N[1]}|foo: sum\n` +
        `notes.txt:3:${N[2]}|  indented sum\n` +
        `notes.txt:4:${N[3]}=bar:\n` +
        `notes.txt:5:${N[4]}|  sum here\n` +
        // An arrow function is listed by its export line; a hit on that line is enclosed by nothing.
        `shelf.ts:2:${T[1]}|export const sum = (xs: number[]) => {\n` +
        `shelf.ts:7:${T[6]}=  count(): number {\n` +
        `shelf.ts:8:${T[7]}|    return sum([1]);\n`,
      stderr: '',
    });
  });

  it('in --json, a definition line is no hit and says how it was found; grep-file takes -p too', () => {
    const dir = repo();
    const doc = JSON.parse(run(['grep', '--json', '-p', 'sum here|foo', 'notes.txt', 'cart.py'], dir).stdout);
    expect(doc.hits).toEqual([
      { path: 'notes.txt', n: 1, lid: N[0], text: 'intro', hit: false, definition: { by: 'heuristic' } },
      { path: 'notes.txt', n: 2, lid: N[1], text: 'foo: sum', hit: true },
      { path: 'notes.txt', n: 4, lid: N[3], text: 'bar:', hit: false, definition: { by: 'heuristic' } },
      { path: 'notes.txt', n: 5, lid: N[4], text: '  sum here', hit: true },
    ]);
    const file = JSON.parse(run(['grep-file', '--json', '-p', 'append', 'cart.py'], dir).stdout);
    expect(file.hits).toEqual([
      {
        n: 11,
        lid: P[10],
        text: '    def add(self, item):',
        hit: false,
        definition: { by: 'outline', kind: 'method', name: 'Cart.add' },
      },
      { n: 12, lid: P[11], text: '        self.items.append(item)', hit: true },
    ]);
    expectRun(run(['grep-file', '-p', 'append', 'cart.py'], dir), {
      status: 0,
      stdout: `11:${P[10]}=    def add(self, item):\n12:${P[11]}|        self.items.append(item)\n`,
      stderr: '',
    });
  });

  it('changes nothing in -c and -l', () => {
    const dir = repo();
    expect(run(['grep', '-c', '-p', 'total'], dir).stdout).toBe(run(['grep', '-c', 'total'], dir).stdout);
    expect(run(['grep', '-l', '-W', 'total'], dir).stdout).toBe(run(['grep', '-l', 'total'], dir).stdout);
  });
});

describe('grep -W', () => {
  it('prints the whole innermost definition, from its decorator or doc comment, its line marked', () => {
    const dir = repo();
    expectRun(run(['grep', '-W', 'price|append', 'cart.py'], dir), {
      status: 0,
      stdout:
        `cart.py:7:${P[6]}-    @property\n` +
        `cart.py:8:${P[7]}=    def total(self):\n` +
        `cart.py:9:${P[8]}|        return sum(i.price for i in self.items)\n` +
        '--\n' +
        `cart.py:11:${P[10]}=    def add(self, item):\n` +
        `cart.py:12:${P[11]}|        self.items.append(item)\n` +
        `cart.py:13:${P[12]}-        return self.total\n`,
      stderr: '',
    });
    // An arrow function's range starts at its doc comment.
    expectRun(run(['grep', '-W', 'reduce', 'shelf.ts'], dir), {
      status: 0,
      stdout:
        `shelf.ts:1:${T[0]}-/** Sums. */\n` +
        `shelf.ts:2:${T[1]}=export const sum = (xs: number[]) => {\n` +
        `shelf.ts:3:${T[2]}|  return xs.reduce((a, b) => a + b, 0);\n` +
        `shelf.ts:4:${T[3]}-};\n`,
      stderr: '',
    });
  });

  it("by git grep's rule, from the function line to the line before the next; merged with -C", () => {
    const dir = repo();
    expectRun(run(['grep', '-W', 'indented', 'notes.txt'], dir), {
      status: 0,
      stdout: `notes.txt:2:${N[1]}=foo: sum\nnotes.txt:3:${N[2]}|  indented sum\n`,
      stderr: '',
    });
    expectRun(run(['grep', '-W', '-C', '1', 'indented', 'notes.txt'], dir), {
      status: 0,
      stdout: `notes.txt:2:${N[1]}=foo: sum\nnotes.txt:3:${N[2]}|  indented sum\nnotes.txt:4:${N[3]}-bar:\n`,
      stderr: '',
    });
  });
});

describe('the lines of definitions', () => {
  it('count as shown: an edit may name them, as it may not a line never shown', () => {
    const dir = repo();
    run(['grep', '-p', 'append', 'cart.py'], dir);
    // Line 11 (def add) was printed as the definition of the hit: edited without --force.
    expectRun(run(['edit', 'cart.py', `11:${P[10]}`], dir, { input: '    def add(self, item, n=1):\n' }), {
      status: 0,
    });
    // Line 16 (def helper) was not printed: refused.
    expect(run(['edit', 'cart.py', `16:${P[15]}`], dir, { input: 'def helper2():\n' }).status).toBe(3);
  });

  it('keep their numbers in a file with a BOM and CRLF endings', () => {
    const dir = tempRepo();
    const crlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(PY.replace(/\n/g, '\r\n'))]);
    write(dir, 'cart.py', crlf);
    const L = lidsOf('cart.py', crlf);
    expectRun(run(['grep', '-p', 'append', 'cart.py'], dir), {
      status: 0,
      // (grep prints a line without its \r, as for any hit.)
      stdout: `cart.py:11:${L[10]}=    def add(self, item):\ncart.py:12:${L[11]}|        self.items.append(item)\n`,
      stderr: '',
    });
  });
});

describe('definitions the outline joins or leaves out', () => {
  it("names the part that holds the hit: a setter's line, not its getter's", () => {
    const dir = tempRepo();
    const ts = 'class Box {\n  get size() {\n    return this.n;\n  }\n  set size(v) {\n    this.n = v;\n  }\n}\n';
    write(dir, 'box.ts', ts);
    const L = lidsOf('box.ts', ts);
    expectRun(run(['grep', '-p', 'this.n = v', 'box.ts'], dir), {
      status: 0,
      stdout: `box.ts:5:${L[4]}=  set size(v) {\nbox.ts:6:${L[5]}|    this.n = v;\n`,
      stderr: '',
    });
  });

  it("a hit outside every definition of the outline takes git grep's rule, and --json says so", () => {
    const dir = tempRepo();
    const py = 'def f():\n    pass\n\n\nif __name__ == "__main__":\n    f()\n';
    write(dir, 'main.py', py);
    const L = lidsOf('main.py', py);
    const doc = JSON.parse(run(['grep', '--json', '-p', '-F', 'f()', 'main.py'], dir).stdout);
    expect(doc.hits).toEqual([
      { path: 'main.py', n: 1, lid: L[0], text: 'def f():', hit: true },
      {
        path: 'main.py',
        n: 5,
        lid: L[4],
        text: 'if __name__ == "__main__":',
        hit: false,
        definition: { by: 'heuristic' },
      },
      { path: 'main.py', n: 6, lid: L[5], text: '    f()', hit: true },
    ]);
  });

  it('a regular expression (matched within a time budget) finds the same definitions as a literal', () => {
    const dir = repo();
    const literal = run(['grep', '-p', '-F', 'return', 'cart.py'], dir).stdout;
    expect(literal).toContain('=    def total(self):');
    expect(run(['grep', '-p', 'retur(n)', 'cart.py'], dir).stdout).toBe(literal);
  });
});
