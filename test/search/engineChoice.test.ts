// The choice of a search's engines (search/engine.ts): from what the search asks, which engines
// are tried, in order (the first that answers is used; rt's own matcher always answers).

import { describe, expect, it } from 'vitest';
import { chooseEngines, planEngines, type EngineInputs, type FolderQuery } from '../../src/search/engine.js';
import { folderQuery } from '../support/folderQuery.js';

const plain: EngineInputs = {
  pcre: false,
  invert: false,
  folders: true,
  ripgrep: true,
  exact: true,
  filesOnly: false,
  noIgnore: false,
  gitLiteral: true,
};

describe('chooseEngines', () => {
  const table: Array<[string, Partial<EngineInputs>, string[]]> = [
    ['a plain literal in folders', {}, ['ripgrep-lines', 'git-grep', 'own']],
    ['-l for a plain literal: the files ripgrep finds', { filesOnly: true }, ['ripgrep-files', 'git-grep', 'own']],
    ['-l for an expression: the lines', { filesOnly: true, exact: false }, ['ripgrep-lines', 'git-grep', 'own']],
    ['-P: ripgrep matches PCRE2', { pcre: true }, ['pcre']],
    ['-P wins over everything else', { pcre: true, invert: true, folders: false }, ['pcre']],
    ['-v: nothing to look for', { invert: true }, ['own']],
    ['a file named among the PATHs', { folders: false }, ['own']],
    ['no literal ripgrep can look for', { ripgrep: false }, ['git-grep', 'own']],
    ['--no-ignore: git grep would miss ignored files', { noIgnore: true }, ['ripgrep-lines', 'own']],
    ['no literal long enough for git grep', { gitLiteral: false }, ['ripgrep-lines', 'own']],
    ['no literal at all', { ripgrep: false, gitLiteral: false }, ['own']],
  ];
  for (const [what, change, engines] of table)
    it(`${what}: ${engines.join(', ')}`, () => expect(chooseEngines({ ...plain, ...change })).toEqual(engines));
});

describe('planEngines', () => {
  const dirs = ['/somewhere'];
  const table: Array<[string, FolderQuery, readonly string[] | undefined, string[], boolean]> = [
    ['-F useState', folderQuery(['useState'], { fixed: true }), dirs, ['ripgrep-lines', 'git-grep', 'own'], true],
    [
      '-l -F useState',
      folderQuery(['useState'], { fixed: true, filesOnly: true }),
      dirs,
      ['ripgrep-files', 'git-grep', 'own'],
      true,
    ],
    // With -i, rt matches a literal as an expression: ripgrep's lines are only candidates.
    [
      '-i -F useState',
      folderQuery(['useState'], { fixed: true, ignoreCase: true }),
      dirs,
      ['ripgrep-lines', 'git-grep', 'own'],
      false,
    ],
    ['use[A-Z]tate', folderQuery(['use[A-Z]tate']), dirs, ['ripgrep-lines', 'git-grep', 'own'], false],
    ['a.b: no literal worth looking for', folderQuery(['a.b']), dirs, ['own'], false],
    ['-v -F useState', folderQuery(['useState'], { fixed: true, invert: true }), dirs, ['own'], true],
    ['-P', folderQuery(['(?<=x)y'], { pcre: true }), dirs, ['pcre'], false],
    ['-F useState in a file named', folderQuery(['useState'], { fixed: true }), undefined, ['own'], true],
    [
      '--no-ignore -F useState',
      folderQuery(['useState'], { fixed: true, list: { hidden: false, noIgnore: true } }),
      dirs,
      ['ripgrep-lines', 'own'],
      true,
    ],
  ];
  for (const [what, q, searched, engines, exact] of table)
    it(`${what}: ${engines.join(', ')}`, () => {
      const plan = planEngines(q, searched);
      expect(plan.kinds).toEqual(engines);
      expect(plan.exact).toBe(exact);
      // Each prefilter chosen has what it is to be asked.
      expect(plan.ripgrep !== undefined).toBe(engines[0]!.startsWith('ripgrep'));
      expect(plan.gitGrep !== undefined).toBe(engines.includes('git-grep'));
    });
});
