// The parsers as the package ships them: dist/lang.cjs and dist/grammars/ (scripts/build.mjs),
// loaded the way dist/rt.cjs loads them, by absolute path, with nothing from node_modules.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Engine, ReadGrammar } from '../../src/lang/engine.js';
import { LANGUAGES, PARSING } from '../../src/lang/languages.js';

const dist = path.resolve(import.meta.dirname, '../../dist');

/** Broken text where `(((` is not (PHP outside `<?php` is text, YAML takes it for a string). */
const BROKEN: Partial<Record<string, string>> = { php: '<?php\n(((\n', yaml: 'a: [\n' };

describe('dist/lang.cjs', () => {
  it('loads every grammar from dist/grammars and parses with it', async () => {
    const { createEngine } = createRequire(import.meta.url)(path.join(dist, 'lang.cjs')) as {
      createEngine: (read: ReadGrammar) => Engine;
    };
    const engine = createEngine((file) => readFileSync(path.join(dist, 'grammars', file)));
    for (const language of LANGUAGES) {
      await engine.prepare(language);
      expect(engine.isPrepared(language), language).toBe(true);
      if (PARSING[language].kind === 'tree-sitter')
        expect(engine.problems(language, BROKEN[language] ?? '(((\n'), language).not.toEqual([]);
    }
    expect(engine.problems('typescript', 'let a = (1;\n')?.map((p) => p.message)).toEqual(['missing `)`']);
  });
});
