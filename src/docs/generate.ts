// Writes the generated documents (man/rt.1) from the command definitions: `npm run docs`.

import fs from 'node:fs';
import path from 'node:path';
import { COMMANDS } from '../cli/commands/index.js';
import { AGENT_GUIDE } from './agents.js';
import { renderCompletion } from './completions.js';
import { renderManPage } from './man.js';

export function generatedDocs(version: string, readme: string): Record<string, string> {
  return {
    'man/rt.1': renderManPage(COMMANDS, version),
    'completions/rt.bash': renderCompletion('bash', COMMANDS),
    'completions/_rt': renderCompletion('zsh', COMMANDS),
    'completions/rt.fish': renderCompletion('fish', COMMANDS),
    'README.md': withAgentGuide(readme),
  };
}

const START = '<!-- generated from src/docs/agents.ts (rt help agents): do not edit -->';
const END = '<!-- end of the generated guide -->';

/** The README with its agents section replaced by the guide `rt help agents` prints. */
export function withAgentGuide(readme: string): string {
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from === -1 || to === -1) throw new Error(`README.md needs the markers ${START} and ${END}`);
  return `${readme.slice(0, from)}${START}\n\n\`\`\`\n${AGENT_GUIDE}\`\`\`\n\n${readme.slice(to)}`;
}

export function packageVersion(root: string): string {
  return (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

export function writeDocs(root: string): string[] {
  const docs = generatedDocs(packageVersion(root), fs.readFileSync(path.join(root, 'README.md'), 'utf8'));
  for (const [file, text] of Object.entries(docs)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return Object.keys(docs);
}
