// The language's own parser before a refusal (python3, bash -n, sh -n): a fake `python3` on PATH
// gives the verdict a test needs; one test asks the real one where it is installed.

import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownParserOf, ownVerdict } from '../../src/lang/ownParsers.js';
import { newErrors, prepareChecker, type Check } from '../../src/lang/syntax.js';

const b = (text: string): Buffer => Buffer.from(text);
const messages = (check: Check): string[] =>
  check.status === 'errors' ? check.errors.map((e) => `${e.line}:${e.column} ${e.message}`) : [check.status];

const folder = mkdtempSync(path.join(tmpdir(), 'rt-own-parsers-'));
const realPath = process.env.PATH ?? '';
/** Where `program` is on the real PATH, if it is. */
const onPath = (program: string): string | undefined =>
  realPath
    .split(path.delimiter)
    .map((dir) => path.join(dir, program))
    .find((file) => {
      try {
        return statSync(file).isFile();
      } catch {
        return false;
      }
    });

/** A folder holding a fake `python3` that reads its input and says `script` says (a shell script's body). */
function fakePython(name: string, script: string): string {
  const dir = path.join(folder, name);
  mkdirSync(dir);
  const file = path.join(dir, 'python3');
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o755);
  return dir;
}

/** Runs `body` with PATH holding only `dirs`. */
function withPath<T>(dirs: readonly string[], body: () => T): T {
  process.env.PATH = dirs.join(path.delimiter);
  try {
    return body();
  } finally {
    process.env.PATH = realPath;
  }
}

/** A folder of the programs a fake and the shell checks use, without python3. */
const TOOLS = path.join(folder, 'tools');
let accepting: string;
let rejectingMarked: string;
let rejecting: string;

beforeAll(async () => {
  expect(await prepareChecker('python')).toEqual({ ok: true });
  expect(await prepareChecker('bash')).toEqual({ ok: true });
  expect(await prepareChecker('rust')).toEqual({ ok: true });
  accepting = fakePython('accepting', 'cat > /dev/null\nexit 0');
  rejecting = fakePython('rejecting', 'cat > /dev/null\necho \'[1, 1, "invalid syntax"]\'\nexit 3');
  // Says "invalid syntax" at line 2 of any text holding BROKEN, accepts every other.
  rejectingMarked = fakePython(
    'marked',
    'if grep -q BROKEN; then echo \'[2, 5, "invalid syntax"]\'; exit 3; fi\nexit 0',
  );
  mkdirSync(TOOLS);
  for (const program of ['sh', 'bash', 'cat', 'grep', 'sleep']) {
    const file = onPath(program);
    if (file) symlinkSync(file, path.join(TOOLS, program));
  }
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

const unindent = {
  before: 'def f(x):\n    if x:\n        return 1\n    return 2\n',
  after: 'def f(x):\n    if x:\n        return 1\n  return 2\n',
};

describe('Python: python3 before a refusal', () => {
  it.skipIf(!onPath('python3'))('the real python3 agrees that a dedent to no outer level breaks the file', () => {
    expect(messages(newErrors('python', b(unindent.before), b(unindent.after)))).toEqual([
      '4:3 unindent does not match any outer indentation level',
    ]);
  });

  it('type parameter defaults (Python 3.13), which the grammar cannot read, pass where python3 accepts them', () => {
    for (const text of ['def f[T = int](x: T) -> T: ...\n', 'class A[T = int]: ...\n']) {
      expect(withPath([rejecting, TOOLS], () => newErrors('python', b(''), b(text))).status, text).toBe('errors');
      expect(withPath([accepting, TOOLS], () => newErrors('python', b(''), b(text))).status, text).toBe('ok');
    }
  });

  it('a file the grammar misreads hides no new break: python3 judges the change', () => {
    const before = 'class A[T = int]:\n    x = 1\n\n\ndef g():\n    return 2\n';
    const after = before.replace('return 2', 'return 2 BROKEN');
    const check = withPath([rejectingMarked, TOOLS], () => newErrors('python', b(before), b(after)));
    expect(messages(check)).toEqual(['2:5 invalid syntax']);
  });

  it('where python3 finds the same first error before and after, the grammar and the indentation rules say', () => {
    const before = 'x = 1 BROKEN\ndef f(x):\n    return x\n';
    const after = 'x = 1 BROKEN\ndef f(x):\n  return x\n    return x\n';
    const check = withPath([rejectingMarked, TOOLS], () => newErrors('python', b(before), b(after)));
    expect(messages(check)).toContain('4:5 unexpected indent');
  });

  it(
    'without python3, the indentation rules, brackets and ' +
      'strings still refuse; what only the grammar sees does not',
    () => {
      const refused = (before: string, after: string): string[] =>
        withPath([TOOLS], () => messages(newErrors('python', b(before), b(after))));
      expect(refused(unindent.before, unindent.after)).toEqual([
        '4:3 unindent does not match any outer indentation level',
      ]);
      expect(refused('def f():\n    pass\n', 'def f():\npass\n')).toEqual([
        '2:1 expected an indented block after function definition on line 1',
      ]);
      expect(refused('x = 1\ny = 2\n', 'x = 1\n  y = 2\n')).toEqual(['2:3 unexpected indent']);
      expect(refused('if x:\n        a = 1\n        b = 2\n', 'if x:\n        a = 1\n\tb = 2\n')).toEqual([
        '3:2 inconsistent use of tabs and spaces in indentation',
      ]);
      expect(refused('x = f(1)\n', 'x = f(1\n')).toEqual(['1:6 `(` was never closed']);
      expect(refused('x = "a"\n', 'x = "a\n')).toEqual(['1:5 unterminated string literal']);
      expect(refused('x = 1\n', 'x = = 1\n')).toEqual(['ok']);
    },
  );

  it('a python3 that does not answer in time gives no verdict', () => {
    const slow = fakePython('slow', 'cat > /dev/null\nsleep 5\nexit 0');
    expect(withPath([slow, TOOLS], () => ownVerdict('python3', 'x = 1\n', 200))).toEqual({ status: 'none' });
  });
});

describe('shell scripts: bash -n, or sh -n for a POSIX sh script', () => {
  const groups = 'f() {\n    if [[ (("$1" -eq "$1") && ("$1" -gt "0")) ]]\n    then\n        echo "$1"\n    fi\n}\n';

  it.skipIf(!onPath('bash'))(
    'parenthesised groups inside [[ ]], which the grammar cannot read, pass as bash reads them',
    () => {
      expect(newErrors('bash', b(''), b(groups)).status).toBe('ok');
      expect(messages(newErrors('bash', b(groups), b(groups.replace('    fi\n', ''))))).toEqual([
        expect.stringMatching(/^5:1 syntax error near unexpected token/),
      ]);
    },
  );

  it('a #!/bin/sh script is read by sh, any other by bash', () => {
    expect(ownParserOf('bash', '#!/bin/sh\necho\n')).toBe('sh');
    expect(ownParserOf('bash', '#!/usr/bin/env sh\necho\n')).toBe('sh');
    expect(ownParserOf('bash', '#!/bin/bash\necho\n')).toBe('bash');
    expect(ownParserOf('bash', 'echo\n')).toBe('bash');
    expect(ownParserOf('go', 'package a\n')).toBeUndefined();
  });

  it.skipIf(!onPath('sh'))('sh -n places its error', () => {
    expect(ownVerdict('sh', 'if true; then\n  echo x\n')).toMatchObject({ status: 'error', problem: { line: 3 } });
  });
});

describe('Rust: rustfmt before a refusal', () => {
  const safe = 'unsafe extern "C" {\n    pub safe fn abs(i: i32) -> i32;\n}\n';

  it.skipIf(!onPath('rustfmt'))(
    'a safe fn in an unsafe extern block (edition 2024), which the grammar cannot read, passes; a break is refused',
    () => {
      expect(newErrors('rust', b(''), b(safe)).status).toBe('ok');
      const broken = `${safe}fn main() {\n    let x = ;\n}\n`;
      expect(messages(newErrors('rust', b(safe), b(broken)))).toEqual(['5:13 expected expression, found `;`']);
    },
  );

  it('without rustfmt, an error refuses only if the change unbalances the brackets (as for C macros)', () => {
    const check = (before: string, after: string): string =>
      withPath([TOOLS], () => newErrors('rust', b(before), b(after)).status);
    expect(check('', safe)).toBe('ok');
    expect(check('fn main() {\n    let x = (1);\n}\n', 'fn main() {\n    let x = (1;\n}\n')).toBe('errors');
  });
});
