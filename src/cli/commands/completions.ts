import { renderCompletion, SHELLS, type Shell } from '../../docs/completions.js';
import { defineCommand } from '../spec.js';
import { COMMANDS } from './index.js';

export const completionsCommand = defineCommand({
  name: 'completions',
  summary: 'print the shell completion script for bash, zsh or fish',
  description: [
    'Prints the completion script for SHELL. It completes commands, options and their values, ' +
      'and paths where an argument names a file or folder. The same scripts are in the ' +
      'completions/ folder of the package.',
  ],
  args: [{ name: 'shell', summary: 'bash, zsh or fish', required: true, complete: 'none', choices: SHELLS }],
  options: [],
  examples: [
    {
      command: 'rt completions bash > ~/.local/share/bash-completion/completions/rt',
      explains: 'install the bash completion',
    },
    { command: 'rt completions zsh > "${fpath[1]}/_rt"', explains: 'install the zsh completion' },
    { command: 'rt completions fish > ~/.config/fish/completions/rt.fish', explains: 'install the fish completion' },
  ],
  exits: [
    [0, 'the script was printed'],
    [2, 'an unknown shell'],
  ],
  readsStdin: false,
  touchesFiles: false,
  run(ctx, args) {
    const script = renderCompletion(args[0] as Shell, COMMANDS);
    ctx.emit({ command: 'completions', shell: args[0], script });
    ctx.out(script);
  },
});
