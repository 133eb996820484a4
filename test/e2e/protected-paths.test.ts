// Nothing inside a repository's .git (folder or file, a nested repository's too, and a git
// folder a .git file leads to) or inside .rt/ is written, removed or made by any command or MCP
// tool (exit 4, nothing written, a hint); reading them stays allowed.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { cleanup, expectRun, openWindow, repoWith, run, tree } from './harness.js';
import { mcpClient } from './mcpClient.js';

afterAll(cleanup);

const git = (dir: string, ...args: string[]) => {
  const r = spawnSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
  if (r.status !== 0) throw new Error(r.stderr);
};

/** Runs rt and expects a refusal with exit 4 naming the protected place, a hint, and nothing written anywhere. */
function refused(dir: string, args: string[], input: string | undefined, place: RegExp, cwd = dir): void {
  const before = tree(dir);
  const r = run(args, cwd, input === undefined ? {} : { input });
  expectRun(r, {
    status: 4,
    stdout: '',
    stderr: (s) =>
      place.test(s) &&
      /nothing was written|rt does not read or edit its state/.test(s) &&
      s.trim().split('\n').length >= 2,
  });
  expect(tree(dir), r.text).toEqual(before);
}

const IN_GIT = /is (inside )?a repository's \.git: rt never writes/;

describe('.git is never written', () => {
  it('refuses apply of a Delete File, an Add File, an Update, and a Move from or to .git', () => {
    const dir = repoWith({ 'a.txt': 'a\n' });
    git(dir, 'config', 'user.name', 'x');
    refused(dir, ['apply'], '*** Begin Patch\n*** Delete File: .git/config\n*** End Patch\n', IN_GIT);
    refused(dir, ['apply'], '*** Add File: .git/hooks/pre-commit\n+echo owned\n', IN_GIT);
    refused(dir, ['apply'], '*** Update File: .git/config\n@@\n+[x]\n', IN_GIT);
    refused(dir, ['apply'], '*** Update File: .git/description\n*** Move to: desc.txt\n', IN_GIT);
    refused(dir, ['apply'], '*** Update File: a.txt\n*** Move to: .git/hooks/post-checkout\n', IN_GIT);
    // A batch with one protected file among others writes none of them.
    refused(dir, ['apply'], '*** Update File: a.txt\n@@\n-a\n+b\n*** Add File: .git/info/exclude2\n+x\n', IN_GIT);
  });

  it('refuses edit, insert, delete and create there, whatever the path goes through', () => {
    const dir = repoWith({ 'a.txt': 'a\n' });
    fs.symlinkSync('.git', path.join(dir, 'gl'));
    fs.mkdirSync(path.join(dir, 'sub'));
    const lid = openWindow(dir, '.git/HEAD').lids[0]!;
    refused(dir, ['edit', '.git/HEAD', lid], 'ref: refs/heads/evil\n', IN_GIT);
    refused(dir, ['insert', '.git/HEAD', lid], 'x\n', IN_GIT);
    refused(dir, ['delete', '.git/HEAD', lid], undefined, IN_GIT);
    refused(dir, ['create', '.git/hooks/pre-commit'], 'echo owned\n', IN_GIT);
    refused(dir, ['create', 'gl/hooks/pre-commit'], 'echo owned\n', IN_GIT);
    refused(dir, ['create', 'sub/../.git/hooks/pre-push'], 'echo owned\n', IN_GIT);
    refused(dir, ['create', '../hooks/pre-commit'], 'echo owned\n', IN_GIT, path.join(dir, '.git', 'info'));
    // Spelled in another case: on a file system that ignores case, it is the same folder.
    refused(dir, ['create', '.GIT/hooks/pre-commit'], 'echo owned\n', /is inside a repository's \.GIT/);
    // --dry-run says the same: the real run would be refused.
    refused(dir, ['create', '--dry-run', '.git/hooks/pre-commit'], 'x\n', IN_GIT);
  });

  it('refuses the .git file of a worktree and of a nested repository, and the git folder such a file leads to', () => {
    const dir = repoWith({ 'a.txt': 'a\n' });
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'one');
    git(dir, 'worktree', 'add', '-q', 'wt');
    fs.mkdirSync(path.join(dir, 'inner'));
    git(path.join(dir, 'inner'), 'init', '-q', '--separate-git-dir', '../gitdir');
    fs.mkdirSync(path.join(dir, 'nested'));
    git(path.join(dir, 'nested'), 'init', '-q');
    refused(dir, ['apply'], '*** Delete File: wt/.git\n', /wt\/\.git is a repository's \.git/);
    refused(dir, ['create', '--force', 'inner/.git'], 'gitdir: /tmp\n', /is a repository's \.git/);
    refused(dir, ['create', 'gitdir/hooks/pre-commit'], 'echo owned\n', /is inside a git folder \(gitdir\)/);
    refused(dir, ['create', 'nested/.git/hooks/pre-commit'], 'echo owned\n', IN_GIT);
    refused(dir, ['create', 'hooks/pre-commit'], 'echo owned\n', IN_GIT, path.join(dir, 'nested', '.git'));
    // Files beside them are written as ever.
    expectRun(run(['create', 'inner/ok.txt'], dir, { input: 'ok\n' }), { status: 0 });
  });

  it('knows a git folder whose HEAD reads "ref:" without a space, as git does', () => {
    const dir = repoWith({ 'a.txt': 'a\n' });
    git(dir, 'init', '-q', '--separate-git-dir', path.join(dir, 'gd'), path.join(dir, 'inner'));
    fs.writeFileSync(path.join(dir, 'gd', 'HEAD'), 'ref:refs/heads/main\n');
    refused(dir, ['create', '--force', 'gd/config'], '[core]\n', /is inside a git folder \(gd\)/);
  });

  it('writes the files of a worktree that lies inside a bare repository', () => {
    const dir = repoWith({ 'a.txt': 'a\n' });
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'one');
    git(dir, 'clone', '-q', '--bare', '.', 'proj.git');
    git(path.join(dir, 'proj.git'), 'worktree', 'add', '-q', 'main');
    const wt = path.join(dir, 'proj.git', 'main');
    expectRun(run(['create', 'b.txt'], wt, { input: 'b\n' }), { status: 0 });
    expect(fs.readFileSync(path.join(wt, 'b.txt'), 'utf8')).toBe('b\n');
  });

  it('lets .git be read: open and grep', () => {
    const dir = repoWith({ 'a.txt': 'a\n' });
    expectRun(run(['open', '.git/HEAD'], dir), { status: 0, stdout: /ref: refs\/heads\//, stderr: '' });
    expectRun(run(['grep', '-c', 'repositoryformatversion', '.git/config'], dir), { status: 0, stdout: /1/ });
  });

  it('refuses an undo or a redo whose file now lies in .git', () => {
    const dir = repoWith({ 'a.txt': 'a\n' });
    expectRun(run(['create', 'sub/pre-commit'], dir, { input: 'echo owned\n' }), { status: 0 });
    expectRun(run(['undo'], dir), { status: 0 });
    // The folder the step made again is now a link into .git/hooks: the redo would write there.
    fs.rmSync(path.join(dir, 'sub'), { recursive: true, force: true });
    fs.symlinkSync(path.join('.git', 'hooks'), path.join(dir, 'sub'));
    refused(dir, ['redo'], undefined, IN_GIT);
    expect(fs.existsSync(path.join(dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });
});

describe('recovery never writes there either', () => {
  it('sets aside a journal that would have a file of .git replaced: the hook is not written', () => {
    const dir = repoWith({ 'a.txt': 'a\n' });
    const hooks = path.join(dir, '.git', 'hooks');
    const temp = path.join(hooks, '.pre-commit.rt-batch-x1x1x1x1x1');
    fs.writeFileSync(temp, 'echo owned\n');
    const entry = (abs: string, t: string | null) => ({
      abs,
      display: path.basename(abs),
      temp: t,
      expected: null,
      overwrite: false,
    });
    const journal = {
      format: 'rt-journal',
      version: 1,
      owner: { pid: 2 ** 22 + 7, host: os.hostname() },
      command: 'rt apply',
      entries: [entry(path.join(hooks, 'pre-commit'), temp), entry(path.join(dir, 'b.txt'), null)],
    };
    fs.mkdirSync(path.join(dir, '.rt', 'journal'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.rt', 'journal', 'x1.json'), JSON.stringify(journal));
    const r = run(['open', 'a.txt'], dir);
    expectRun(r, { status: 0, stderr: /set aside a damaged batch journal/ });
    expect(fs.existsSync(path.join(hooks, 'pre-commit'))).toBe(false);
  });
});

describe('.rt is never written', () => {
  it('refuses create, apply and a Move onto .rt/', () => {
    const dir = repoWith({ 'a.txt': 'a\n' });
    openWindow(dir, 'a.txt');
    refused(dir, ['create', '.rt/x.json'], '{}\n', /\.rt/);
    refused(dir, ['apply'], '*** Update File: a.txt\n*** Move to: .rt/history/steps.json\n', /\.rt/);
    refused(dir, ['apply'], '*** Add File: .RT/x\n+x\n', /rt's own state folder \(\.RT\)/);
  });
});

describe('MCP tools refuse as the commands do', () => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  it('create, apply and edit of .git are tool errors; open of it works', async () => {
    const dir = repoWith({ 'a.txt': 'a\n' });
    const before = tree(path.join(dir, '.git'));
    const { client, call } = await mcpClient(dir);
    clients.push(client);
    const opened = await call('open', { target: '.git/HEAD' });
    expect(opened.isError, JSON.stringify(opened)).toBeFalsy();
    const lid = (opened.structuredContent!.lines as Array<{ lid: string }>)[0]!.lid;
    for (const [name, args] of [
      ['create', { path: '.git/hooks/pre-commit', text: 'echo owned\n' }],
      ['apply', { patch: '*** Delete File: .git/config\n' }],
      ['edit', { path: '.git/HEAD', from: lid, text: 'ref: refs/heads/evil\n' }],
      ['delete', { path: '.git/HEAD', from: lid }],
      ['insert', { path: '.git/HEAD', at: lid, text: 'x\n' }],
    ] as const) {
      const r = await call(name, args);
      expect(r.isError, `${name}: ${JSON.stringify(r)}`).toBe(true);
      expect(r.content.map((c) => c.text).join(''), name).toMatch(IN_GIT);
    }
    expect(tree(path.join(dir, '.git'))).toEqual(before);
  });
});
