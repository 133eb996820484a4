// Loads TypeScript's own parser when a JavaScript or TypeScript change is about to be refused
// (syntax.ts): tree-sitter's grammars lag the language, TypeScript's parser does not. Run from
// the sources (tests), this is the typescript package; the build replaces this file, in
// dist/rt.cjs, by a require of dist/typescript.cjs (its copy of that package's one file).

import { createRequire } from 'node:module';

type TypeScript = typeof import('typescript');

let loaded: TypeScript | null | undefined;

/** TypeScript, or undefined when it cannot be loaded (the check then keeps tree-sitter's answer). */
export function loadTypeScript(): TypeScript | undefined {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)('typescript') as TypeScript;
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}
