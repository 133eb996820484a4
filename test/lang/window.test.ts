// Where the check cuts a long file (window.ts): around the edit, before top-level code.

import { describe, expect, it } from 'vitest';
import { lineOffsets, windowOf, WINDOWED_FROM_LINES, WINDOW_CONTEXT } from '../../src/lang/window.js';

const bytes = (lines: readonly string[]): Buffer => Buffer.from(`${lines.join('\n')}\n`);
/** Top-level functions of ten lines, each after a blank line. */
const functions = (count: number): string[] =>
  Array.from({ length: count }, (_, i) =>
    i % 10 === 0 ? '' : i % 10 === 1 ? `function f${i}(a: number): number {` : i % 10 === 9 ? '}' : `  a = a + ${i};`,
  );
/** One class whose body is every line: no top-level code after the first line. */
const oneClass = (count: number): string[] =>
  Array.from({ length: count }, (_, i) =>
    i === 0 ? 'class C {' : i === count - 1 ? '}' : i % 10 === 0 ? '' : `  m${i}() { return ${i}; }`,
  );

function windowAt(lines: readonly string[], line: number) {
  const text = bytes(lines);
  const starts = lineOffsets(text);
  return windowOf(text, starts, starts, [{ oldStart: line, oldEnd: line + 1, newStart: line, newEnd: line + 1 }]);
}

describe('windowOf', () => {
  it(`parses a file of ${WINDOWED_FROM_LINES} lines or fewer whole`, () => {
    expect(windowAt(functions(WINDOWED_FROM_LINES), 1500)).toBeUndefined();
  });

  it('cuts a 10,000-line file of functions before top-level code, WINDOW_CONTEXT lines or more each side', () => {
    const lines = functions(10_000);
    const window = windowAt(lines, 5000)!;
    for (const cut of [window.newFrom, window.newTo]) {
      expect(lines[cut - 1]).toBe('');
      expect(lines[cut]).toMatch(/^function /);
    }
    expect(5000 - 1 - window.newFrom).toBeGreaterThanOrEqual(WINDOW_CONTEXT);
    expect(window.newTo - 5000).toBeGreaterThanOrEqual(WINDOW_CONTEXT);
    expect(window.newTo - window.newFrom).toBeLessThan(2 * WINDOW_CONTEXT + 30);
  });

  it('cuts a class of 10,000 lines WINDOW_CONTEXT lines from the edit: no top-level code near', () => {
    expect(windowAt(oneClass(10_000), 5000)).toEqual({
      oldFrom: 5000 - 1 - WINDOW_CONTEXT,
      oldTo: 5000 + WINDOW_CONTEXT,
      newFrom: 5000 - 1 - WINDOW_CONTEXT,
      newTo: 5000 + WINDOW_CONTEXT,
    });
  });

  it('keeps the file start and end as cuts', () => {
    const lines = functions(10_000);
    expect(windowAt(lines, 20)!.newFrom).toBe(0);
    expect(windowAt(lines, 9990)!.newTo).toBe(10_000);
  });

  it('maps the window below an insert to the old lines', () => {
    const old = functions(10_000);
    const now = [...old.slice(0, 5000), '  a = 0;', '  a = 1;', ...old.slice(5000)];
    const oldBytes = bytes(old);
    const newBytes = bytes(now);
    const window = windowOf(newBytes, lineOffsets(newBytes), lineOffsets(oldBytes), [
      { oldStart: 5001, oldEnd: 5001, newStart: 5001, newEnd: 5003 },
    ])!;
    expect(window.oldFrom).toBe(window.newFrom);
    expect(window.oldTo).toBe(window.newTo - 2);
    expect(old[window.oldTo]).toBe(now[window.newTo]);
  });
});
