// Which language a file is in: by its name first (extension, or a well-known file
// name), then by its shebang. Files of no known language are not checked. Pure.

export type LanguageId =
  | 'javascript'
  | 'typescript'
  | 'tsx'
  | 'json'
  | 'jsonc'
  | 'json5'
  | 'python'
  | 'go'
  | 'rust'
  | 'java'
  | 'c'
  | 'cpp'
  | 'csharp'
  | 'ruby'
  | 'php'
  | 'bash'
  | 'css'
  | 'yaml';

/** How a language is parsed: a tree-sitter grammar (its .wasm file), or a JavaScript parser. */
/**
 * JSON's dialects: JSON itself, JSONC (comments and trailing commas), JSON5 (an ECMAScript object literal's syntax).
 */
export type JsonDialect = 'json' | 'jsonc' | 'json5';

export type Parsing =
  | { kind: 'tree-sitter'; grammar: string }
  | { kind: 'json'; dialect: JsonDialect }
  | { kind: 'yaml' };

export const PARSING: Readonly<Record<LanguageId, Parsing>> = {
  javascript: { kind: 'tree-sitter', grammar: 'tree-sitter-javascript.wasm' },
  typescript: { kind: 'tree-sitter', grammar: 'tree-sitter-typescript.wasm' },
  tsx: { kind: 'tree-sitter', grammar: 'tree-sitter-tsx.wasm' },
  json: { kind: 'json', dialect: 'json' },
  jsonc: { kind: 'json', dialect: 'jsonc' },
  json5: { kind: 'json', dialect: 'json5' },
  python: { kind: 'tree-sitter', grammar: 'tree-sitter-python.wasm' },
  go: { kind: 'tree-sitter', grammar: 'tree-sitter-go.wasm' },
  rust: { kind: 'tree-sitter', grammar: 'tree-sitter-rust.wasm' },
  java: { kind: 'tree-sitter', grammar: 'tree-sitter-java.wasm' },
  c: { kind: 'tree-sitter', grammar: 'tree-sitter-c.wasm' },
  cpp: { kind: 'tree-sitter', grammar: 'tree-sitter-cpp.wasm' },
  csharp: { kind: 'tree-sitter', grammar: 'tree-sitter-c-sharp.wasm' },
  ruby: { kind: 'tree-sitter', grammar: 'tree-sitter-ruby.wasm' },
  php: { kind: 'tree-sitter', grammar: 'tree-sitter-php.wasm' },
  bash: { kind: 'tree-sitter', grammar: 'tree-sitter-bash.wasm' },
  css: { kind: 'tree-sitter', grammar: 'tree-sitter-css.wasm' },
  yaml: { kind: 'tree-sitter', grammar: 'tree-sitter-yaml.wasm' },
};

export const LANGUAGES = Object.keys(PARSING) as readonly LanguageId[];

const BY_EXTENSION: Readonly<Record<string, LanguageId>> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  json: 'json',
  geojson: 'json',
  webmanifest: 'json',
  'json-ld': 'json',
  jsonld: 'json',
  jsonc: 'jsonc',
  'code-workspace': 'jsonc',
  'code-snippets': 'jsonc',
  json5: 'json5',
  py: 'python',
  pyi: 'python',
  pyw: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  'c++': 'cpp',
  hh: 'cpp',
  hpp: 'cpp',
  hxx: 'cpp',
  'h++': 'cpp',
  ipp: 'cpp',
  tpp: 'cpp',
  inl: 'cpp',
  cs: 'csharp',
  csx: 'csharp',
  rb: 'ruby',
  rake: 'ruby',
  gemspec: 'ruby',
  ru: 'ruby',
  podspec: 'ruby',
  php: 'php',
  phtml: 'php',
  sh: 'bash',
  bash: 'bash',
  css: 'css',
  yml: 'yaml',
  yaml: 'yaml',
};

/** Whole file names (the last path part) of a known language, whatever their extension says. */
const BY_NAME: Readonly<Record<string, LanguageId>> = {
  Rakefile: 'ruby',
  Gemfile: 'ruby',
  Guardfile: 'ruby',
  Vagrantfile: 'ruby',
  Podfile: 'ruby',
  Brewfile: 'ruby',
  Capfile: 'ruby',
  Fastfile: 'ruby',
  '.bashrc': 'bash',
  '.bash_profile': 'bash',
  '.bash_login': 'bash',
  '.bash_logout': 'bash',
  '.profile': 'bash',
  PKGBUILD: 'bash',
  '.babelrc': 'jsonc',
  '.babelrc.json': 'jsonc',
  'babel.config.json': 'jsonc',
  '.jshintrc': 'jsonc',
  '.swcrc': 'jsonc',
  '.eslintrc': 'jsonc',
  '.eslintrc.json': 'jsonc',
  'renovate.json': 'jsonc',
  '.renovaterc': 'jsonc',
  '.renovaterc.json': 'jsonc',
  'devcontainer.json': 'jsonc',
  '.devcontainer.json': 'jsonc',
  'tslint.json': 'jsonc',
  'deno.json': 'jsonc',
  'turbo.json': 'jsonc',
  'biome.json': 'jsonc',
  '.oxlintrc.json': 'jsonc',
  'api-extractor.json': 'jsonc',
  'language-configuration.json': 'jsonc',
  'typedoc.json': 'jsonc',
  '.markdownlint.json': 'jsonc',
  'Pipfile.lock': 'json',
  '.clang-format': 'yaml',
  '.clang-tidy': 'yaml',
};

/** JSON files read by tools that allow comments and trailing commas (TypeScript's, VS Code's). */
const JSONC_NAME = /^(?:tsconfig|jsconfig)(?:[.-].*)?\.json$/;
const JSONC_FOLDER = /(?:^|\/)\.(?:vscode|codesandbox|devcontainer)\/[^/]+\.json$/;

/** Interpreters named by a shebang (the last part of the path, or `env`'s argument). */
const BY_INTERPRETER: Readonly<Record<string, LanguageId>> = {
  node: 'javascript',
  nodejs: 'javascript',
  bun: 'javascript',
  zx: 'javascript',
  deno: 'typescript',
  'ts-node': 'typescript',
  tsx: 'typescript',
  'ts-node-esm': 'typescript',
  python: 'python',
  ruby: 'ruby',
  php: 'php',
  sh: 'bash',
  bash: 'bash',
  dash: 'bash',
};

/**
 * The language of the file at `path`, or undefined when rt knows none. `head` is the file's
 * first bytes (its first line is enough for the shebang; C headers look at more, up to the
 * whole file, to tell C++ from C). A name decides before a shebang does.
 */
export function languageOf(path: string, head: Uint8Array = new Uint8Array(0)): LanguageId | undefined {
  const slashed = path.replace(/\\/g, '/');
  const name = slashed.slice(slashed.lastIndexOf('/') + 1);
  const named = BY_NAME[name];
  if (named !== undefined) return named;
  if (JSONC_NAME.test(name) || JSONC_FOLDER.test(slashed)) return 'jsonc';
  const dot = name.lastIndexOf('.');
  if (dot > 0) {
    const extension = name.slice(dot + 1).toLowerCase();
    const byExtension = BY_EXTENSION[extension];
    if (byExtension === 'c' && extension === 'h' && looksLikeCpp(head)) return 'cpp';
    if (byExtension !== undefined) return byExtension;
  }
  return languageOfShebang(head);
}

/** The language a `#!` first line names, if any: `#!/bin/sh`, `#!/usr/bin/env -S python3 -u`. */
export function languageOfShebang(head: Uint8Array): LanguageId | undefined {
  if (head[0] !== 0x23 || head[1] !== 0x21) return undefined;
  let end = head.indexOf(0x0a);
  if (end === -1) end = Math.min(head.length, 256);
  const line = Buffer.from(head.buffer, head.byteOffset, end).toString('latin1').slice(2).trim();
  const words = line.split(/\s+/);
  let program = words[0] ?? '';
  program = program.slice(program.lastIndexOf('/') + 1);
  if (program === 'env') program = words.slice(1).find((word) => !word.startsWith('-') && !word.includes('=')) ?? '';
  // python3, python3.12, ruby3.2: the version does not change the language.
  const interpreter = program.replace(/[\d.]+$/, '');
  return BY_INTERPRETER[interpreter];
}

/** C++ in a `.h` file: a class, namespace or template, access labels, or `::` outside comments are signs enough. */
function looksLikeCpp(head: Uint8Array): boolean {
  const text = Buffer.from(head.buffer, head.byteOffset, Math.min(head.length, 64 * 1024)).toString('latin1');
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
  return CPP_ONLY.test(code);
}

/** What only C++ writes: a class, a namespace, a template, access labels, `::`, extern "C++". */
const CPP_ONLY =
  /^\s*(?:class|namespace|template\s*<|public:|private:|protected:|using\s+namespace)\b|::|\bextern\s+"C\+\+"/m;
