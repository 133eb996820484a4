// rt rename against TypeScript's own rename, in a git checkout that may be written (a copy: never
// a repository you care about). TypeScript's rename is asked of a language service over the
// nearest tsconfig's files and every file spelling the name, with the standard library; its
// locations (with prefix and suffix text) are applied to the text, and the files rt rename wrote
// must be exactly those. tsc's diagnostics of the tsconfig's program are counted before and after
// (--no-diag skips them), then rt undo must leave the checkout clean. One JSON line per call.
// Usage: node bench/rename-vs-typescript.mjs CHECKOUT FILE NAME NEWNAME [--no-diag]
//   FILE declares NAME (a function, class, variable or method: the first declaration of it).

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ts = createRequire(import.meta.url)('typescript');
const rt = path.join(root, 'bin', 'rt.cjs');
const [repoArg, file, name, newName] = process.argv.slice(2);
if (!newName) {
  console.error('usage: node bench/rename-vs-typescript.mjs CHECKOUT FILE NAME NEWNAME [--no-diag]');
  process.exit(2);
}
const repo = path.resolve(repoArg);
const noDiag = process.argv.includes('--no-diag');
const abs = path.resolve(repo, file);
const git = (...args) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
if (git('status', '--porcelain').trim()) throw new Error(`${repo} has changes: start from a clean checkout`);

const configPath = ts.findConfigFile(path.dirname(abs), ts.sys.fileExists);
const parsed = configPath
  ? ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} })
  : undefined;
const spelling = execFileSync('rg', ['-l', '-w', '-F', '-g', '*.{ts,tsx,js,jsx,mjs,cjs,mts,cts}', name, '.'], {
  cwd: repo,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean)
  .map((f) => path.resolve(repo, f));
const roots = [...new Set([abs, ...(parsed?.fileNames ?? []), ...spelling])];
const options = { ...(parsed?.options ?? { allowJs: true }), allowJs: true, noEmit: true, composite: false };
const texts = new Map();
const text = (f) => {
  if (!texts.has(f)) texts.set(f, fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined);
  return texts.get(f);
};
const service = ts.createLanguageService({
  getCompilationSettings: () => options,
  getScriptFileNames: () => roots,
  getScriptVersion: () => '0',
  getScriptSnapshot: (f) => (text(f) === undefined ? undefined : ts.ScriptSnapshot.fromString(text(f))),
  getCurrentDirectory: () => repo,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
});

// The declaration: NAME after a declaring keyword, or a member NAME( at the start of a line.
const source = text(abs);
const declared = new RegExp(
  `(?:function\\*?|class|const|let|var|interface|type|enum)\\s+(${name})\\b|` +
    `^\\s*(?:(?:async|static|public|private|protected|get|set)\\s+)*(${name})\\s*[(<=:]`,
  'md',
).exec(source);
if (!declared) throw new Error(`no declaration of ${name} in ${file}`);
const at = (declared.indices[1] ?? declared.indices[2])[0];
const line = source.slice(0, at).split('\n').length;
const lineText = source.split('\n')[line - 1];
const column = Buffer.byteLength(lineText.slice(0, at - (source.lastIndexOf('\n', at - 1) + 1))) + 1;

const started = Date.now();
const locations = service.findRenameLocations(abs, at, false, false, { providePrefixAndSuffixTextForRename: true });
const tsRenameMs = Date.now() - started;
const wanted = new Map();
for (const l of locations) wanted.set(l.fileName, [...(wanted.get(l.fileName) ?? []), l]);
for (const [f, places] of wanted) {
  let s = text(f);
  for (const l of places.sort((a, b) => b.textSpan.start - a.textSpan.start))
    s =
      s.slice(0, l.textSpan.start) +
      `${l.prefixText ?? ''}${newName}${l.suffixText ?? ''}` +
      s.slice(l.textSpan.start + l.textSpan.length);
  wanted.set(f, s);
}

function diagnostics() {
  if (noDiag || !parsed) return 'n/a';
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: { ...parsed.options, noEmit: true, composite: false, incremental: false },
    projectReferences: parsed.projectReferences,
  });
  return ts.getPreEmitDiagnostics(program).length;
}

const before = diagnostics();
const bytes = new Map([...wanted.keys()].map((f) => [f, fs.readFileSync(f)]));
const lid = /^\d+:([0-9a-z]{4})\|/.exec(
  execFileSync('node', [rt, 'grep-file', '-F', lineText, file], { cwd: repo, encoding: 'utf8' }),
)[1];
const target = `${file}:${line}:${lid}:${column}`;
const t0 = process.hrtime.bigint();
const renamed = spawnSync('node', [rt, 'rename', target, newName], { cwd: repo, encoding: 'utf8' });
const rtMs = Math.round(Number(process.hrtime.bigint() - t0) / 1e6);
const written = git('status', '--porcelain')
  .split('\n')
  .filter(Boolean)
  .map((l) => path.resolve(repo, l.slice(3)));
const differs = [...new Set([...wanted.keys(), ...written])]
  .filter((f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined) !== (wanted.get(f) ?? text(f)))
  .map((f) => path.relative(repo, f));
const after = renamed.status === 0 ? diagnostics() : 'n/a';
const undone = spawnSync('node', [rt, 'undo'], { cwd: repo, encoding: 'utf8' });
const restored =
  (renamed.status !== 0 || undone.status === 0) &&
  [...bytes].every(([f, b]) => fs.readFileSync(f).equals(b)) &&
  git('status', '--porcelain').trim() === '';
console.log(
  JSON.stringify({
    target,
    newName,
    rtExit: renamed.status,
    rtMs,
    tsRenameMs,
    places: locations.length,
    files: wanted.size,
    sameAsTypeScript: renamed.status === 0 && differs.length === 0,
    diagnosticsBefore: before,
    diagnosticsAfter: after,
    undoRestored: restored,
    differs,
    refusal: renamed.status === 0 ? undefined : renamed.stderr.split('\n')[0],
  }),
);
