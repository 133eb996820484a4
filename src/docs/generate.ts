// Writes the generated documents (man/rt.1) from the command definitions: `npm run docs`.

import fs from 'node:fs';
import path from 'node:path';
import { COMMANDS } from '../cli/commands/index.js';
import { renderManPage } from './man.js';

export function generatedDocs(version: string): Record<string, string> {
  return { 'man/rt.1': renderManPage(COMMANDS, version) };
}

export function packageVersion(root: string): string {
  return (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

export function writeDocs(root: string): string[] {
  const docs = generatedDocs(packageVersion(root));
  for (const [file, text] of Object.entries(docs)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return Object.keys(docs);
}
