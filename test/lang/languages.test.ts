// Which files are checked: by name, then by shebang; others not at all.

import { describe, expect, it } from 'vitest';
import { languageOf, languageOfShebang, LANGUAGES, PARSING } from '../../src/lang/languages.js';

const head = (text: string): Buffer => Buffer.from(text);

describe('languageOf', () => {
  it.each([
    ['src/app.ts', 'typescript'],
    ['src/app.d.ts', 'typescript'],
    ['lib/x.mts', 'typescript'],
    ['ui/App.tsx', 'tsx'],
    ['a.js', 'javascript'],
    ['a.mjs', 'javascript'],
    ['a.cjs', 'javascript'],
    ['View.jsx', 'javascript'],
    ['package.json', 'json'],
    ['tsconfig.json', 'jsonc'],
    ['packages/x/tsconfig.build.json', 'jsonc'],
    ['jsconfig.json', 'jsonc'],
    ['.vscode/settings.json', 'jsonc'],
    ['a/.devcontainer/devcontainer.json', 'jsonc'],
    ['x.jsonc', 'jsonc'],
    ['babel.config.json', 'jsonc'],
    ['packages/a/.babelrc', 'jsonc'],
    ['.babelrc.json', 'jsonc'],
    ['renovate.json', 'jsonc'],
    ['.eslintrc.json', 'jsonc'],
    ['devcontainer.json', 'jsonc'],
    ['.vscode/launch.json', 'jsonc'],
    ['jsconfig.app.json', 'jsonc'],
    ['.swcrc', 'jsonc'],
    ['renovate.json5', 'json5'],
    ['config/app.json5', 'json5'],
    ['tool.py', 'python'],
    ['stubs/x.pyi', 'python'],
    ['main.go', 'go'],
    ['lib.rs', 'rust'],
    ['Main.java', 'java'],
    ['list.c', 'c'],
    ['list.cc', 'cpp'],
    ['list.hpp', 'cpp'],
    ['Program.cs', 'csharp'],
    ['app.rb', 'ruby'],
    ['Rakefile', 'ruby'],
    ['Gemfile', 'ruby'],
    ['x.gemspec', 'ruby'],
    ['index.php', 'php'],
    ['run.sh', 'bash'],
    ['.bashrc', 'bash'],
    ['style.css', 'css'],
    ['ci.yml', 'yaml'],
    ['compose.YAML', 'yaml'],
    ['C:\\src\\App.TS', 'typescript'],
  ])('%s is %s', (path, language) => {
    expect(languageOf(path, head(''))).toBe(language);
  });

  it.each(['README.md', 'notes.txt', 'Makefile', 'x.zsh', 'style.scss', 'a.h.orig', '.gitignore', 'noext'])(
    '%s is not checked',
    (path) => {
      expect(languageOf(path, head('some text\n'))).toBeUndefined();
    },
  );

  it('a .h file is C unless it shows C++ (classes, namespaces, templates, ::)', () => {
    expect(languageOf('list.h', head('struct list { int n; };\nint count(struct list *);\n'))).toBe('c');
    expect(languageOf('list.h', head('#pragma once\nnamespace util {\nclass List {};\n}\n'))).toBe('cpp');
    expect(languageOf('list.h', head('template <typename T>\nT max(T a, T b);\n'))).toBe('cpp');
    expect(languageOf('list.h', head('// a class:: in a comment\nint n;\n'))).toBe('c');
  });

  it('a name decides before a shebang, a shebang decides for a file without a known name', () => {
    expect(languageOf('tool.py', head('#!/bin/sh\n'))).toBe('python');
    expect(languageOf('bin/tool', head('#!/usr/bin/env python3\nprint(1)\n'))).toBe('python');
    expect(languageOf('bin/tool', head('#!/bin/bash\n'))).toBe('bash');
    expect(languageOf('bin/tool', head('no shebang\n'))).toBeUndefined();
  });
});

describe('languageOfShebang', () => {
  it.each([
    ['#!/bin/sh', 'bash'],
    ['#!/bin/bash -e', 'bash'],
    ['#!/usr/bin/env bash', 'bash'],
    ['#!/usr/bin/dash', 'bash'],
    ['#!/usr/bin/env python3.12', 'python'],
    ['#!/usr/bin/python', 'python'],
    ['#!/usr/bin/env -S node --no-warnings', 'javascript'],
    ['#!/usr/bin/env node', 'javascript'],
    ['#!/usr/bin/env -S deno run', 'typescript'],
    ['#!/usr/bin/env ts-node', 'typescript'],
    ['#!/usr/bin/env ruby', 'ruby'],
    ['#!/usr/bin/env PYTHONPATH=. python3', 'python'],
    ['#!/usr/bin/php', 'php'],
    ['#!/usr/bin/env perl', undefined],
    ['#!/bin/zsh', undefined],
    ['# not a shebang', undefined],
  ])('%s', (line, language) => {
    expect(languageOfShebang(head(`${line}\nrest\n`))).toBe(language);
  });

  it('reads a shebang without a newline, and bytes that are not UTF-8', () => {
    expect(languageOfShebang(head('#!/bin/sh'))).toBe('bash');
    expect(languageOfShebang(Buffer.from([0x23, 0x21, 0xff, 0x0a]))).toBeUndefined();
  });
});

describe('PARSING', () => {
  it('covers the languages the man page names, each with a parser', () => {
    const named = [
      'javascript',
      'typescript',
      'tsx',
      'json',
      'python',
      'go',
      'rust',
      'java',
      'c',
      'cpp',
      'csharp',
      'ruby',
      'php',
      'bash',
      'css',
      'yaml',
    ];
    for (const language of named) expect(LANGUAGES).toContain(language);
    for (const language of LANGUAGES) expect(PARSING[language]).toBeDefined();
  });
});
