// Bundles the CLI into one file (dist/rt.mjs) so start-up loads a single module.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/rt.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: false,
  sourcemap: false,
  legalComments: 'none',
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __rtCreateRequire } from 'node:module'; const require = __rtCreateRequire(import.meta.url);" },
  define: { __RT_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
});
