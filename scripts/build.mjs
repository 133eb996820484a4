// Bundles the CLI into one file (dist/rt.cjs) so start-up loads a single module, then makes
// V8's code cache for it (dist/rt.cjs.cache) from a sample run; bin/rt.cjs loads both.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import { LOADER_COPIES, withLoader } from './copyLoader.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const outfile = path.join(root, 'dist', 'rt.cjs');

// The code-cache loader has one source, scripts/codeCache.cjs; the files that must stand alone
// carry a copy of it, made the same here (written only when it differs).
for (const file of LOADER_COPIES) {
  const text = withLoader(root, file);
  if (text !== readFileSync(path.join(root, file), 'utf8')) writeFileSync(path.join(root, file), text);
}

/**
 * commander loads child_process when it is loaded, only for subcommands that are separate
 * executables, which rt has none of; loading it then costs every run start-up time. This loads
 * it when commander would first use it. A commander whose source no longer has that line fails
 * the build rather than quietly losing the saving.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const line = "const childProcess = require('node:child_process');";
      if (!source.includes(line)) throw new Error(`build: ${args.path} no longer loads child_process as expected`);
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: source.replace(line, lazy), loader: 'js' };
    });
  },
};

/**
 * Packages that cost every run start-up time and heap when loaded, though few commands call them:
 * ignore compiles regular expressions at load (some 270 KB of heap; only a walk outside git reads
 * ignore files) and picomatch serves globs only. In dist/rt.cjs each import becomes a load at the
 * first call. A source whose import is no longer the line expected fails the build rather than
 * quietly losing the saving.
 */
const LAZY_IMPORTS = [
  {
    file: 'src/search/listFiles.ts',
    line: "import ignore, { type Ignore } from 'ignore';",
    lazy: "import type { Ignore } from 'ignore';\nconst ignore = (options) => require('ignore')(options);",
  },
  {
    file: 'src/search/candidates.ts',
    line: "import picomatch from 'picomatch';",
    lazy:
      "const picomatch = Object.assign((glob, options) => require('picomatch')(glob, options), " +
      "{ makeRe: (glob, options) => require('picomatch').makeRe(glob, options) });",
  },
];
const lazyImports = {
  name: 'lazy-imports',
  setup(b) {
    const rewritten = new Set();
    for (const { file, line, lazy } of LAZY_IMPORTS) {
      const filter = new RegExp(`${file.split('/').join('[\\\\/]').replace('.', '\\.')}$`);
      b.onLoad({ filter }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(line)) throw new Error(`build: ${args.path} no longer imports as expected: ${line}`);
        rewritten.add(file);
        return { contents: source.replace(line, lazy), loader: 'ts' };
      });
    }
    // Also fails when a file above was moved (nothing rewritten) or another file imports either package.
    b.onResolve({ filter: /^(ignore|picomatch)$/ }, (args) => {
      const from = path.relative(process.cwd(), args.importer).split(path.sep).join('/');
      if (!LAZY_IMPORTS.some((l) => l.file === from && l.line.includes(`'${args.path}'`)))
        return {
          errors: [{ text: `build: ${from} imports ${args.path}, which only the lazy imports above may load` }],
        };
      return undefined;
    });
    b.onEnd((result) => {
      for (const { file } of LAZY_IMPORTS)
        if (result.errors.length === 0 && !rewritten.has(file))
          result.errors.push({ text: `build: ${file} was not bundled, so its lazy import is lost` });
    });
  },
};

/**
 * The files the three loaders below load are sidecars of dist/rt.cjs: files beside it in dist/,
 * or a single executable's assets (scripts/sidecars.mjs, bundled in, tells which). bin/rt.cjs
 * passes the bundle dist/ as __dirname and its own require, which takes absolute paths as well.
 */
const sidecars = JSON.stringify(path.join(root, 'scripts', 'sidecars.mjs'));

/**
 * TypeScript's parser, which confirms a refusal of a JavaScript or TypeScript change
 * (src/lang/syntax.ts): in dist/rt.cjs, src/lang/loadTypeScript.ts becomes a load of
 * typescript.cjs, the typescript package's one file copied to dist/.
 */
const typeScriptLoader = {
  name: 'typescript-loader',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]lang[\\/]loadTypeScript\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('export function loadTypeScript(): TypeScript | undefined'))
        throw new Error(`build: ${args.path} no longer exports loadTypeScript as expected`);
      const contents = [
        `import { requireSidecar } from ${sidecars};`,
        'let loaded;',
        'export function loadTypeScript() {',
        '  if (loaded === undefined) {',
        "    try { loaded = requireSidecar('typescript.cjs'); } catch { loaded = null; }",
        '  }',
        '  return loaded ?? undefined;',
        '}',
      ].join('\n');
      return { contents, loader: 'js' };
    });
  },
};

/**
 * The parsers (src/lang/engine.ts: web-tree-sitter, jsonc-parser) are a bundle of their own,
 * dist/lang.cjs, and their grammars files of dist/grammars/: the CLI loads them only when a
 * command parses a file. In dist/rt.cjs, src/lang/loadEngine.ts (which finds them in
 * node_modules when run from the sources) becomes a load of those sidecars.
 */
const langLoader = {
  name: 'lang-loader',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]lang[\\/]loadEngine\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('export async function loadEngine(): Promise<Engine>'))
        throw new Error(`build: ${args.path} no longer exports loadEngine as expected`);
      const contents = [
        `import { readSidecar, requireSidecar } from ${sidecars};`,
        'export async function loadEngine() {',
        "  const { createEngine } = requireSidecar('lang.cjs');",
        '  return createEngine((file) => readSidecar(`grammars/${file}`));',
        '}',
      ].join('\n');
      return { contents, loader: 'js' };
    });
  },
};

/**
 * The MCP SDK (src/mcp/sdk.ts) is a bundle of its own too, dist/mcp.cjs, which only rt mcp loads:
 * in dist/rt.cjs, src/mcp/loadSdk.ts becomes a load of that sidecar.
 */
const mcpLoader = {
  name: 'mcp-loader',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]mcp[\\/]loadSdk\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('export async function loadSdk(): Promise<Sdk>'))
        throw new Error(`build: ${args.path} no longer exports loadSdk as expected`);
      const contents = [
        `import { requireSidecar } from ${sidecars};`,
        'export async function loadSdk() {',
        "  return requireSidecar('mcp.cjs');",
        '}',
      ].join('\n');
      return { contents, loader: 'js' };
    });
  },
};

/**
 * The SDK's Server makes an Ajv validator (Ajv and its formats: half of the SDK's bundle, and
 * some 4 ms a start) only to check the answers to elicitations, which rt never asks for. In
 * dist/mcp.cjs it is one that accepts everything; the tests' client, from node_modules, keeps
 * Ajv.
 */
const noAjv = {
  name: 'no-ajv',
  setup(b) {
    b.onLoad(
      { filter: /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/](?:cjs|esm)[\\/]validation[\\/]ajv-provider\.js$/ },
      () => ({
        loader: 'js',
        contents:
          'export class AjvJsonSchemaValidator { getValidator() { return (input) => ({ valid: true, data: ' +
          'input, errorMessage: undefined }); } }',
      }),
    );
  },
};

/**
 * web-tree-sitter's CommonJS build for the CommonJS bundle: its ES build, which an `import`
 * resolves to, reads import.meta.url, which a CommonJS bundle does not have.
 */
const webTreeSitterRequireBuild = {
  name: 'web-tree-sitter-require-build',
  setup(b) {
    b.onResolve({ filter: /^web-tree-sitter$/ }, () => ({
      path: createRequire(path.join(root, 'package.json')).resolve('web-tree-sitter'),
    }));
  },
};

await build({
  entryPoints: [path.join(root, 'src/lang/engine.ts')],
  outfile: path.join(root, 'dist', 'lang.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  legalComments: 'none',
  // jsonc-parser's `main` is UMD with requires esbuild cannot follow; its `module` is plain ES.
  mainFields: ['module', 'main'],
  logLevel: 'warning',
  plugins: [webTreeSitterRequireBuild],
});
copyGrammars();
// The parsers' bundle is loaded with a code cache of its own (scripts/sidecars.mjs): made ASCII
// and named by its first line, as dist/rt.cjs is below (not wrapped: a test requires it as it is).
stampBuild(path.join(root, 'dist', 'lang.cjs'));
copyFileSync(
  createRequire(path.join(root, 'package.json')).resolve('typescript'),
  path.join(root, 'dist', 'typescript.cjs'),
);
// TypeScript's parser is loaded with a code cache too: named by its first line as the others, and
// wrapped as dist/rt.cjs is (see stampBuild): 9 MB of text not copied again by each load.
stampBuild(path.join(root, 'dist', 'typescript.cjs'), { wrap: true });

await build({
  entryPoints: [path.join(root, 'src/mcp/sdk.ts')],
  outfile: path.join(root, 'dist', 'mcp.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [noAjv],
});

await build({
  entryPoints: [path.join(root, 'src/cli/main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  legalComments: 'none',
  define: { __RT_VERSION__: JSON.stringify(version) },
  // Less for V8 to read and to cache at every start; the names are shortened below, once the
  // interop helper is patched by its name.
  minifyWhitespace: true,
  logLevel: 'warning',
  plugins: [lazyChildProcess, lazyImports, langLoader, typeScriptLoader, mcpLoader],
});

/** Copies the WASM files src/lang/grammars.json names (and their packages' licences) to dist/grammars/. */
function copyGrammars() {
  const files = JSON.parse(readFileSync(path.join(root, 'src/lang/grammars.json'), 'utf8'));
  const into = path.join(root, 'dist', 'grammars');
  rmSync(into, { recursive: true, force: true });
  mkdirSync(into, { recursive: true });
  const resolve = createRequire(path.join(root, 'package.json')).resolve;
  const licences = new Set();
  for (const [file, specifier] of Object.entries(files)) {
    const from = resolve(specifier);
    copyFileSync(from, path.join(into, file));
    const parts = specifier.split('/');
    const pkg = parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
    if (licences.has(pkg)) continue;
    licences.add(pkg);
    let folder = path.dirname(from);
    while (!existsSync(path.join(folder, 'package.json'))) folder = path.dirname(folder);
    const licence = path.join(folder, 'LICENSE');
    if (existsSync(licence)) copyFileSync(licence, path.join(into, `${pkg.replace('/', '+')}.LICENSE`));
  }
}

/**
 * esbuild wraps a CommonJS module imported by default (`import fs from 'node:fs'`) in an ES
 * namespace, copying its properties, once per importing file: some thirty copies of fs and path
 * cost every run 2-3 ms. Memoised per module, each is made once. A bundle without the helper's
 * expected text fails the build rather than quietly losing the saving.
 */
function memoizeInterop(code) {
  // The bundle's whitespace is minified: the helper reads `var __toESM=(mod,isNodeMode,target)=>(`.
  const helper = /var __toESM\s*=\s*\(mod,\s*isNodeMode,\s*target\)\s*=>\s*\(/;
  if (!helper.test(code)) throw new Error("build: esbuild's __toESM helper is not where it was expected");
  return code.replace(
    helper,
    'var __toESMMade = [new Map(), new Map()];\n' +
      ('var __toESM = (mod, isNodeMode) => { const made = __toESMMade[isNodeMode ? 1 : 0]; if (!made.has(mod)) ' +
        'made.set(mod, __toESMOnce(mod, isNodeMode)); return made.get(mod); };\n') +
      'var __toESMOnce = (mod, isNodeMode, target) => (',
  );
}

// The bundle's first line names its build: a digest of the rest. The code cache starts with the
// same line, so bin/rt.cjs can tell a cache made from this very bundle without hashing 400 KB
// of source on every run.
// ASCII only, so that bin/rt.cjs can read it as Latin-1, twice as fast as decoding UTF-8 (0.5 ms
// of every start): esbuild escapes what is not ASCII in code; what is left, in comments, is
// escaped here, a UTF-16 unit at a time (\uXXXX reads the same in a comment, a string or a regular
// expression, with the u flag or without).
// Its local names are shortened once the interop helper is in place (a quarter less text for V8
// to read, keep and cache at every start, some 0.5 MB of each run's peak memory); the names of
// what stack traces print (RT_DEBUG) are shortened with them. RT_KEEP_NAMES=1 keeps them, for a
// CPU profile or a trace that names rt's functions.
const shortNames = (
  await transform(memoizeInterop(readFileSync(outfile, 'utf8')), {
    minifyWhitespace: true,
    minifyIdentifiers: !process.env.RT_KEEP_NAMES,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
  })
).code;
stampBuild(outfile, { transform: () => shortNames, wrap: true });

/**
 * Makes a bundle ASCII only (see above) and names its build on its first line. With `wrap`, the
 * CommonJS wrapper the loader would put around it is put there by the build, so that a start does
 * not copy the whole text once more to wrap it (scripts/codeCache.cjs).
 */
function stampBuild(file, { transform = (code) => code, wrap = false } = {}) {
  const text = transform(readFileSync(file, 'utf8')).replace(
    /[^\x00-\x7f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const bundle = wrap ? `(function (exports, require, module, __filename, __dirname) {${text}\n})` : text;
  const buildLine = `// rt build ${createHash('sha256').update(bundle).digest('hex').slice(0, 32)}\n`;
  writeFileSync(file, buildLine + bundle);
  rmSync(`${file}.cache`, { force: true });
  // The caches runs under other flags made of the bundle before (see ownCache): of another build.
  const own = `${path.basename(file)}.cache-`;
  for (const name of readdirSync(path.dirname(file)))
    if (name.startsWith(own)) rmSync(path.join(path.dirname(file), name), { force: true });
}

// Sample runs compile what a typical command uses: a first open of a small file (which builds
// and saves its index), then the same window again from the saved index, whose process writes
// the cache.
// The parsers' cache comes from an outline of a small TypeScript file, which loads them;
// TypeScript's, from a refused deletion of a `}` of that file, which its parser confirms.
const sample = mkdtempSync(path.join(tmpdir(), 'rt-build-'));
writeFileSync(path.join(sample, 'sample.txt'), 'one\ntwo\nthree\n');
writeFileSync(
  path.join(sample, 'sample.ts'),
  'export class Sample {\n  size(n: number): number {\n    return n + 1;\n  }\n}\n',
);
const runs = [
  [['open', 'sample.txt:2'], {}],
  [['open', 'sample.txt:2'], { RT_WRITE_CODE_CACHE: outfile }],
  [['outline', 'sample.ts'], { RT_WRITE_CODE_CACHE: path.join(root, 'dist', 'lang.cjs') }],
  [['open', 'sample.ts'], {}],
  [['delete', 'sample.ts', '4'], { RT_WRITE_CODE_CACHE: path.join(root, 'dist', 'typescript.cjs') }, 5],
];
for (const [args, extra, expected = 0] of runs) {
  const run = spawnSync(process.execPath, [path.join(root, 'bin', 'rt.cjs'), ...args], {
    cwd: sample,
    // With no flags from NODE_OPTIONS: V8 takes a cache only under the flags it was made with, and
    // a run with flags makes its own (see ownCache).
    env: { ...process.env, ...extra, RT_STATE: '', RT_ROOT: sample, NODE_OPTIONS: '' },
    encoding: 'utf8',
  });
  if (run.status !== expected) {
    console.error(`build: the sample run failed (no code cache made):\n${run.stderr}`);
    process.exitCode = 1;
    break;
  }
}
rmSync(sample, { recursive: true, force: true });
