// --indent auto (src/model/indent.ts): a block moved to the indentation around it,
// its own relative indentation kept, in the file's indent character.

import { describe, expect, it } from 'vitest';
import { indentUnit, reindent, targetIndent } from '../../src/model/indent.js';
import { splitLines } from '../../src/model/lines.js';

const b = (s: string) => Buffer.from(s, 'utf8');
const rows = (s: string) => s.split('\n').map(b);
const text = (r: Buffer[]) => r.map((x) => x.toString('utf8')).join('\n');

const TS = splitLines(b('class A {\n  run() {\n    if (x) {\n      go();\n    }\n    done();\n  }\n}\n'));
const GO = splitLines(b('func f() {\n\tif x {\n\t\tgo()\n\t}\n}\n'));

describe('targetIndent', () => {
  it("takes the first replaced line's indentation for a replacement", () => {
    expect(targetIndent(TS, 3, 1).toString()).toBe('      ');
  });
  it(
    "takes the next line's for an insertion, the line above's before a closing line, one level more after an " +
      'opener at the end',
    () => {
      expect(targetIndent(TS, 5, 0).toString()).toBe('    '); // before done();
      expect(targetIndent(TS, 4, 0).toString()).toBe('      '); // before the } closing the if: inside it
      expect(targetIndent(TS, 3, 0).toString()).toBe('      '); // after `if (x) {`: its body
      const open = splitLines(b('def f():\n'));
      expect(targetIndent(open, 1, 0).toString()).toBe('    ');
    },
  );
});

describe('reindent', () => {
  it('moves a block stripped of its indentation back where it goes, relative indentation kept', () => {
    const block = rows('if (y) {\n  stop();\n}');
    expect(text(reindent(block, targetIndent(TS, 5, 0), indentUnit(TS)))).toBe('    if (y) {\n      stop();\n    }');
  });
  it('moves a block indented too deep or too shallow, and keeps blank lines', () => {
    expect(text(reindent(rows('          a();\n\n          b();'), b('    '), b('  ')))).toBe('    a();\n\n    b();');
    expect(text(reindent(rows('  a();\n}'), b('      '), b('  ')))).toBe('      a();\n    }');
  });
  it("writes the file's indent character: spaces into a file of tabs become tabs, level for level", () => {
    const unit = indentUnit(GO);
    expect(unit.toString()).toBe('\t');
    // Before the } that closes the function: at the if's level.
    expect(text(reindent(rows('if y {\n    stop()\n}'), targetIndent(GO, 4, 0), unit))).toBe(
      '\tif y {\n\t\tstop()\n\t}',
    );
  });
  it("finds a file's unit of spaces", () => {
    expect(indentUnit(TS).toString()).toBe('  ');
    expect(indentUnit(splitLines(b('a:\n    b\n        c\n    d\n'))).toString()).toBe('    ');
  });
  it('leaves a block of blank lines as it is', () => {
    expect(text(reindent(rows('\n  '), b('    '), b('  ')))).toBe('\n  ');
  });
});
