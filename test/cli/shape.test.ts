// The shape of the code, read from the sources (docs/DESIGN.md, "Layers" and "One write path"):
// the CLI parses and renders and touches no file itself, every write reaches the journal through
// the one transaction, src/model imports nothing above it, and no two exported types share a name.

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

/** The room of a source file: its first folder under src/ ('' for a file at the top). */
function roomOf(file: string): string {
  const parts = path.relative(src, file).split(path.sep);
  return parts.length > 1 ? parts[0]! : '';
}

describe('layers', () => {
  it('src/model imports nothing outside src/model', () => {
    const crossing = sources(path.join(src, 'model')).flatMap((f) =>
      importsOf(fs.readFileSync(f, 'utf8'))
        .filter((m) => m.startsWith('.'))
        .map((m) => path.resolve(path.dirname(f), m))
        .filter((m) => roomOf(m) !== 'model')
        .map((m) => `${path.relative(root, f)} imports ${path.relative(root, m)}`),
    );
    expect(crossing).toEqual([]);
  });

  it('no two exported types, interfaces or classes share a name', () => {
    const where = new Map<string, string[]>();
    for (const f of sources(src)) {
      for (const m of fs.readFileSync(f, 'utf8').matchAll(/^export (?:interface|type|class|enum) (\w+)/gm)) {
        where.set(m[1]!, [...(where.get(m[1]!) ?? []), path.relative(root, f)]);
      }
    }
    expect([...where].filter(([, files]) => files.length > 1)).toEqual([]);
  });
});
