// Shell completions for bash, zsh and fish, rendered from the command definitions (like the
// man page), committed in completions/ and printed by `rt completions SHELL`. They complete
// subcommands, options (and their fixed values), and file or folder paths where an argument
// names one.

import type { ArgSpec, CommandSpec, OptionSpec } from '../cli/spec.js';
import { GLOBAL_OPTIONS, HELP_COMMAND } from '../cli/spec.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Topics of `rt help` besides the commands: help itself, and the guide for agents. */
export const HELP_TOPICS = [HELP_COMMAND.name, 'agents'];

export function renderCompletion(shell: Shell, commands: readonly CommandSpec[]): string {
  switch (shell) {
    case 'bash':
      return bash(commands);
    case 'zsh':
      return zsh(commands);
    case 'fish':
      return fish(commands);
  }
}

const HELP: OptionSpec = { long: 'help', short: 'h', kind: 'switch', summary: 'show help' };

function optionsOf(c: CommandSpec): OptionSpec[] {
  return [...c.options, ...GLOBAL_OPTIONS, HELP];
}

function flagsOf(o: OptionSpec): string[] {
  return [...(o.short ? [`-${o.short}`] : []), `--${o.long}`];
}

/** What completes an argument: a fixed list, files, folders, or nothing. */
function argKind(a: ArgSpec): 'files' | 'dirs' | 'none' | 'choices' {
  if (a.choices) return 'choices';
  if (a.complete === 'file' || a.complete === 'target') return 'files';
  if (a.complete === 'dir') return 'dirs';
  return 'none';
}

function bash(commands: readonly CommandSpec[]): string {
  const names = [...commands.map((c) => c.name), HELP_COMMAND.name].join(' ');
  const topWords = `${names} ${[...GLOBAL_OPTIONS.flatMap(flagsOf), '--help', '-h', '--version', '-V'].join(' ')}`;
  const valueFlags = new Set<string>();
  for (const c of commands) for (const o of optionsOf(c)) if (o.value) flagsOf(o).forEach((f) => valueFlags.add(f));
  const cases = commands.map((c) => {
    const opts = optionsOf(c).flatMap(flagsOf).join(' ');
    const positional = c.args.map((a, i) => {
      const last = i === c.args.length - 1 && a.variadic ? '*' : String(i);
      const kind = argKind(a);
      const action =
        kind === 'files'
          ? 'COMPREPLY=($(compgen -f -- "$cur"))'
          : kind === 'dirs'
            ? 'COMPREPLY=($(compgen -d -- "$cur"))'
            : kind === 'choices'
              ? `COMPREPLY=($(compgen -W ${shq(a.choices!.join(' '))} -- "$cur"))`
              : 'COMPREPLY=()';
      return `        ${last}) ${action} ;;`;
    });
    const choiceValues = optionsOf(c)
      .filter((o) => o.choices)
      .map(
        (o) =>
          `      ${flagsOf(o).join('|')}) COMPREPLY=($(compgen -W ${shq(o.choices!.join(' '))} -- "$cur")); return ;;`,
      );
    return [
      `    ${c.name})`,
      `      opts=${shq(opts)}`,
      `      case "$prev" in`,
      ...choiceValues,
      `        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;`,
      `      esac`,
      `      if [[ " $valueflags " == *" $prev "* ]]; then return; fi`,
      `      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return; fi`,
      ...(c.args.some((a) => a.complete === 'target') ? ['      _rt_symbols && return'] : []),
      `      case "$pos" in`,
      ...positional,
      ...(c.args.some((a) => a.variadic) ? [] : ['        *) COMPREPLY=() ;;']),
      `      esac`,
      `      ;;`,
    ].join('\n');
  });
  // Before the command word: the global options, and the values of those with fixed ones.
  const topChoices = GLOBAL_OPTIONS.filter((o) => o.choices)
    .map(
      (o) =>
        `      ${flagsOf(o).join('|')}) COMPREPLY=($(compgen -W ${shq(o.choices!.join(' '))} -- "$cur")); return ;;`,
    )
    .join('\n');
  return `# bash completion for rt — generated from the command definitions (rt completions bash)
# Install: rt completions bash > ~/.local/share/bash-completion/completions/rt

# PATH:@NAME: the definitions rt outline names in PATH. Bash splits words at colons (unless
# COMP_WORDBREAKS says otherwise), so the word typed is read from the line itself.
_rt_symbols() {
  local word="\${COMP_LINE:0:COMP_POINT}"
  word="\${word##*[[:space:]]}"
  [[ "$word" == *:@* ]] || return 1
  local file="\${word%%:@*}" typed="\${word##*:@}" pre="@" name
  [[ "$cur" == *:@* ]] && pre="\${cur%%:@*}:@"
  COMPREPLY=()
  while IFS= read -r name; do
    [[ -n "$name" && "$name" == "$typed"* ]] && COMPREPLY+=("$pre$name")
  done < <(rt outline "$file" --names 2>/dev/null)
  compopt +o filenames 2>/dev/null
  return 0
}

_rt() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local valueflags=${shq([...valueFlags].join(' '))}
  local cmd="" pos=0 i word opts
  # Find the command and how many arguments (not options or their values) follow it.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if [[ " $valueflags " == *" $word "* ]]; then ((i++)); continue; fi
    [[ "$word" == -* ]] && continue
    if [[ -z "$cmd" ]]; then cmd="$word"; else ((pos++)); fi
  done
  if [[ -z "$cmd" ]]; then
    case "$prev" in
${topChoices}
      --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    COMPREPLY=($(compgen -W ${shq(topWords)} -- "$cur"))
    return
  fi
  case "$cmd" in
${cases.join('\n')}
    help)
      COMPREPLY=($(compgen -W ${shq([...commands.map((c) => c.name), ...HELP_TOPICS].join(' '))} -- "$cur"))
      ;;
  esac
}
complete -o filenames -o bashdefault -F _rt rt
`;
}

function zsh(commands: readonly CommandSpec[]): string {
  const described = commands.map((c) => `    ${shq(`${c.name}:${zEsc(c.summary)}`)}`).join('\n');
  const cases = commands.map((c) => {
    const opts = optionsOf(c).map((o) => {
      const flags = flagsOf(o);
      const spec = flags.length > 1 ? `'(${flags.join(' ')})'{${flags.join(',')}}` : flags[0]!;
      const value = o.value
        ? `:${o.value}:${o.choices ? `(${o.choices.join(' ')})` : o.long === 'root' ? '_files -/' : ' '}`
        : '';
      return `        ${spec}${shq(`[${zEsc(o.summary)}]${value}`)}`;
    });
    const args = c.args.map((a, i) => {
      const kind = argKind(a);
      const action =
        a.complete === 'target'
          ? '_rt_target'
          : kind === 'files'
            ? '_files'
            : kind === 'dirs'
              ? '_files -/'
              : kind === 'choices'
                ? `(${a.choices!.join(' ')})`
                : ' ';
      return `        ${shq(`${a.variadic ? '*' : String(i + 1)}:${a.name}:${action}`)}`;
    });
    return [
      `    ${c.name})`,
      '      _arguments -s \\',
      ...[...opts, ...args].map((l) => `${l} \\`),
      '        && ret=0',
      '      ;;',
    ].join('\n');
  });
  return `#compdef rt
# zsh completion for rt — generated from the command definitions (rt completions zsh)
# Install: rt completions zsh > "\${fpath[1]}/_rt"

# PATH:@NAME: the definitions rt outline names in PATH; else files.
_rt_target() {
  if [[ $PREFIX == *:@* ]]; then
    local -a names
    names=(\${(f)"$(rt outline \${PREFIX%%:@*} --names 2>/dev/null)"})
    compset -P '*:@'
    compadd -a names
  else
    _files
  fi
}

_rt() {
  local -a commands
  local ret=1
  commands=(
${described}
    '${HELP_COMMAND.name}:${HELP_COMMAND.summary}'
  )
  _arguments -C \\
    '--root[use DIR as the root]:DIR:_files -/' \\
    '(-h --help)'{-h,--help}'[show help]' \\
    '(-V --version)'{-V,--version}'[print the version]' \\
    '1:command:->command' \\
    '*::argument:->argument' && ret=0
  case $state in
    command) _describe -t commands 'rt command' commands && ret=0 ;;
    argument)
      case $words[1] in
${cases.join('\n')}
    help) _values 'topic' ${[...commands.map((c) => c.name), ...HELP_TOPICS].join(' ')} && ret=0 ;;
      esac
      ;;
  esac
  return ret
}

_rt "$@"
`;
}

function fish(commands: readonly CommandSpec[]): string {
  const lines = [
    '# fish completion for rt — generated from the command definitions (rt completions fish)',
    '# Install: rt completions fish > ~/.config/fish/completions/rt.fish',
    '',
    'complete -c rt -f',
    '# PATH:@NAME: the definitions rt outline names in PATH.',
    'function __rt_symbols',
    '    set -l token (commandline -ct)',
    "    string match -q -- '*:@*' $token; or return",
    "    set -l file (string replace -r -- ':@.*' '' $token)",
    '    for name in (rt outline $file --names 2>/dev/null)',
    '        echo $file:@$name',
    '    end',
    'end',
    `complete -c rt -n __fish_use_subcommand -l root -r -a '(__fish_complete_directories)' ` +
      `-d ${fq('use DIR as the root')}`,
    `complete -c rt -n __fish_use_subcommand -s V -l version -d ${fq('print the version')}`,
    `complete -c rt -n __fish_use_subcommand -s h -l help -d ${fq('show help')}`,
  ];
  for (const c of commands) lines.push(`complete -c rt -n __fish_use_subcommand -a ${c.name} -d ${fq(c.summary)}`);
  lines.push(`complete -c rt -n __fish_use_subcommand -a ${HELP_COMMAND.name} -d ${fq(HELP_COMMAND.summary)}`);
  for (const c of commands) {
    const when = `'__fish_seen_subcommand_from ${c.name}'`;
    for (const o of optionsOf(c)) {
      const parts = [`complete -c rt -n ${when}`];
      if (o.short) parts.push(`-s ${o.short}`);
      parts.push(`-l ${o.long}`);
      if (o.value) parts.push('-r');
      if (o.choices) parts.push(`-a ${fq(o.choices.join(' '))}`);
      else if (o.long === 'root') parts.push("-a '(__fish_complete_directories)'");
      parts.push(`-d ${fq(o.summary)}`);
      lines.push(parts.join(' '));
    }
    const kinds = new Set(c.args.map(argKind));
    if (kinds.has('files')) lines.push(`complete -c rt -n ${when} -F`);
    if (c.args.some((a) => a.complete === 'target')) lines.push(`complete -c rt -n ${when} -a '(__rt_symbols)'`);
    if (kinds.has('dirs')) lines.push(`complete -c rt -n ${when} -a '(__fish_complete_directories)'`);
    for (const a of c.args) if (a.choices) lines.push(`complete -c rt -n ${when} -a ${fq(a.choices.join(' '))}`);
  }
  lines.push(
    `complete -c rt -n '__fish_seen_subcommand_from help' ` +
      `-a ${fq([...commands.map((c) => c.name), ...HELP_TOPICS].join(' '))}`,
  );
  return `${lines.join('\n')}\n`;
}

/** Single-quoted for POSIX shells. */
function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A description inside a zsh spec: brackets and colons are syntax there. */
function zEsc(s: string): string {
  return s.replace(/[[\]:\\]/g, '\\$&');
}

/** Single-quoted for fish. */
function fq(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
