// The benchmark corpora, built once under bench/.corpus (git-ignored) and reused:
//   small.ts   a 150-line TypeScript file (start-up dominates)
//   big.txt    1,000,000 generated lines, about 50 MB
//   tree/      real code from npm packages, committed to a git repository (20,000+ files)

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const CORPUS = { small: 'small.ts', big: 'big.txt' };

/** Packages whose installed files make the tree: a large, real JavaScript/TypeScript code base. */
const PACKAGES = [
  'date-fns@4',
  '@mui/material@7',
  '@emotion/react@11',
  '@emotion/styled@11',
  'rxjs@7',
  'core-js@3',
  'lodash@4',
  'lodash-es@4',
  'typescript@5',
  'three@0',
  'ramda@0',
  'moment@2',
];
/** The identifier searched for: common in React code, absent from most files. */
const IDENT = 'useState';
/** A regular expression for the same kind of line (the fourth letter any capital). */
const PATTERN = 'use[A-Z]tate';

export function buildCorpora(root) {
  const dir = path.join(root, 'bench', '.corpus');
  fs.mkdirSync(dir, { recursive: true });

  const small = path.join(dir, CORPUS.small);
  if (!fs.existsSync(small)) fs.writeFileSync(small, smallFile());

  const big = path.join(dir, CORPUS.big);
  if (!fs.existsSync(big)) {
    console.error('bench: generating big.txt (1,000,000 lines)');
    writeBig(big);
  }

  const tree = path.join(dir, 'tree');
  if (!fs.existsSync(path.join(tree, '.git'))) buildTree(dir, tree);
  const files = spawnSync('git', ['ls-files'], { cwd: tree, encoding: 'utf8', maxBuffer: 1 << 30 })
    .stdout.split('\n')
    .filter(Boolean).length;

  const bigBytes = fs.statSync(big).size;
  return {
    dir,
    tree,
    bigBytes,
    bigLines: 1_000_000,
    treeFiles: files,
    packages: PACKAGES,
    ident: IDENT,
    pattern: PATTERN,
  };
}

function smallFile() {
  const lines = [
    "import { readFileSync } from 'node:fs';",
    '',
    'export interface Item {',
    '  readonly name: string;',
    '  readonly price: number;',
    '}',
    '',
  ];
  for (let i = 0; lines.length < 148; i++) {
    lines.push(`export function total${i}(items: readonly Item[], tax = ${i % 7}): number {`);
    lines.push(`  const sum = items.reduce((acc, item) => acc + item.price * ${i + 1}, 0);`);
    lines.push(`\treturn Math.round(sum * (1 + tax / 100));`);
    lines.push('}');
    lines.push('');
  }
  lines.push('export const loaded = readFileSync;');
  return `${lines.slice(0, 150).join('\n')}\n`;
}

/** 1,000,000 lines of varied text, about 50 MB, the same on every run (one line in ten blank). */
function writeBig(file) {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu'];
  const fd = fs.openSync(file, 'w');
  let chunk = [];
  for (let i = 1; i <= 1_000_000; i++) {
    const w = words[i % words.length];
    chunk.push(
      i % 10 === 0
        ? ''
        : `${String(i).padStart(7, '0')} ${w} ${words[(i * 7) % words.length]} ` +
            `value=${(i * 2654435761) % 100000} total=${(i * 40503) % 1000003} ${'x'.repeat(i % 13)}`,
    );
    if (chunk.length === 10000) {
      fs.writeSync(fd, `${chunk.join('\n')}\n`);
      chunk = [];
    }
  }
  fs.closeSync(fd);
  // Old enough that no run sees it as just changed.
  const past = new Date(Date.now() - 3_600_000);
  fs.utimesSync(file, past, past);
}

function buildTree(dir, tree) {
  console.error(`bench: installing ${PACKAGES.length} npm packages for the tree (once)`);
  const install = path.join(dir, 'npm');
  fs.mkdirSync(install, { recursive: true });
  fs.writeFileSync(path.join(install, 'package.json'), '{"name":"rt-bench-corpus","version":"1.0.0","private":true}\n');
  const r = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', ...PACKAGES],
    { cwd: install, stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error('bench: npm install of the corpus packages failed');
  fs.rmSync(tree, { recursive: true, force: true });
  fs.cpSync(path.join(install, 'node_modules'), tree, { recursive: true, verbatimSymlinks: true });
  const git = (args) => {
    const g = spawnSync('git', args, { cwd: tree, stdio: ['ignore', 'ignore', 'inherit'] });
    if (g.status !== 0) throw new Error(`bench: git ${args.join(' ')} failed`);
  };
  git(['init', '-q']);
  git(['add', '-A']);
  git(['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', 'corpus']);
}
