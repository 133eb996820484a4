// The shape of the write path, read from the sources: the CLI parses and renders and touches no
// file itself (the search commands' listing and reading live in src/search), and every write
// reaches the journal through the one transaction.

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const src = path.join(root, 'src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sources(file);
    return e.name.endsWith('.ts') ? [file] : [];
  });
}

/** The modules a source imports (static imports, re-exports and dynamic imports alike). */
function importsOf(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  return found;
}

describe('the write path', () => {
  it('finds the imports it looks for (the scan itself works)', () => {
    expect(importsOf("import fs from 'node:fs';\nexport { x } from './y.js';\nawait import(\"fs\");")).toEqual([
      'node:fs',
      './y.js',
      'fs',
    ]);
  });

  it('no file of src/cli imports node:fs', () => {
    const files = sources(path.join(src, 'cli'));
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((f) =>
      importsOf(fs.readFileSync(f, 'utf8')).some((m) => /^(node:)?fs(\/promises)?$/.test(m)),
    );
    expect(offenders.map((f) => path.relative(root, f))).toEqual([]);
  });

  it('commitWrites has one caller: the transaction', () => {
    const callers = sources(src).flatMap((f) => {
      const text = fs.readFileSync(f, 'utf8');
      const calls = [...text.matchAll(/\bcommitWrites\s*\(/g)].filter(
        (m) => !/function\s+$/.test(text.slice(Math.max(0, m.index! - 20), m.index)),
      );
      return calls.map(() => path.relative(root, f));
    });
    expect(callers).toEqual(['src/store/transaction.ts']);
  });
});
