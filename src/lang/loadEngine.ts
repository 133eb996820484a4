// Loads the parsers (engine.ts) when a command first needs one. Run from the sources (tests),
// this imports engine.ts and finds the grammars in node_modules; the build replaces this file,
// in dist/rt.cjs, by one that loads dist/lang.cjs and the grammars copied to dist/grammars/, or
// a single executable's copies of them (scripts/build.mjs), so nothing of them is in the bundle
// every command starts.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Engine } from './engine.js';

export async function loadEngine(): Promise<Engine> {
  const { createEngine } = await import('./engine.js');
  const require = createRequire(import.meta.url);
  // Grammar file name → its path as a module specifier (the package it comes with); read when
  // first needed, so that bundles of the sources that never parse (the docs') need not find it.
  const files: Readonly<Record<string, string>> = JSON.parse(
    readFileSync(new URL('./grammars.json', import.meta.url), 'utf8'),
  );
  return createEngine((file) => {
    const specifier = files[file];
    if (specifier === undefined) throw new Error(`rt: no grammar file ${file}`);
    return readFileSync(require.resolve(specifier));
  });
}
