// Regenerates man/rt.1 (and the other generated documents) from the command definitions.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(path.join(tmpdir(), 'rt-docs-'));
const outfile = path.join(dir, 'docs.mjs');
await build({
  entryPoints: [path.join(root, 'src/docs/generate.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'warning',
});
const { writeDocs } = await import(pathToFileURL(outfile).href);
for (const file of writeDocs(root)) console.log(`wrote ${file}`);
rmSync(dir, { recursive: true, force: true });
