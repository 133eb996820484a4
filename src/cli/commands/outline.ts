import { lidToString } from '../../model/lid.js';
import { openIndexed, retryOnChange } from '../../store/indexedFile.js';
import { withFolderOf } from '../../store/pinnedFolder.js';
import { resolveInRoot } from '../../store/root.js';
import { ViewState } from '../../store/views.js';
import { renderWindowLines } from '../../render/window.js';
import { defineCommand } from '../spec.js';
import { quotePath } from '../../model/errors.js';
import { errorsNote, grammarFor, OUTLINED, outlineOfFile } from '../symbols.js';

export const outlineCommand = defineCommand({
  name: 'outline',
  summary: "list the definitions of a file (a Markdown file's headings), each as one line with its LID",
  tool: [
    'List the definitions of a file in order (classes, functions, methods, interfaces, types, structs,',
    "enums, traits, modules, top-level constants; a Markdown file's headings), each as its line",
    'NUMBER:LID|CONTENT (a decorated one by its def line); those lines count as shown, so an edit may start',
    "at one. Open one whole with open and target PATH:@NAME (or @Class.method, or a heading's anchor such",
    'as @set-up). names: only the qualified names, one a line. Exit 2: a language rt has no outline',
    'for; 4: the file is missing, binary or outside the root.',
  ],
  description: [
    `Lists the definitions of PATH in file order (classes, functions, methods, interfaces, ` +
      `types, structs, enums, traits, modules and top-level constants), each as its line in ` +
      `window form NUMBER:LID|CONTENT under the header --- PATH (outline: K definitions of N ` +
      `lines) ---. Those lines count as shown: an edit may start at one of them.`,
    'A definition is listed by its def, class or function line; its range starts at its first ' +
      'decorator, attribute or doc comment. A getter with its setter, and overloads with their ' +
      'implementation, are one definition. const A = class { … } has members A.m; an anonymous ' +
      "export default is default. Python's constants: module-level names in capitals (LIMIT = " +
      '10).',
    'Markdown files (.md, .markdown, .mdx…) list their ATX and setext headings (kind h1-h6; not ' +
      'in code, HTML, quotes or lists), each named by its GitHub anchor (set-up; a repeat -1, ' +
      '-2…), its section running to the next heading of its level or higher. They are not ' +
      'syntax-checked.',
    `Languages: ${OUTLINED.join(', ')}, by the file's name, or its #! line. Open a definition ` +
      `whole with rt open PATH:@NAME (or @Class.method, or a heading's anchor).`,
    '--json prints {path, total, definitions: [{line, lid, content, kind, name, qualifiedName, ' +
      'start, end, level}]} (level for headings only; line is the line listed, start and end the ' +
      'range); --names prints only the qualified names, one a line (what shell completion offers ' +
      'after PATH:@).',
    'A file whose parse has errors (a syntax error, or valid code the grammar cannot place) may ' +
      'lose the definitions after the first: rt says from which line on stderr and as ' +
      'parseErrorsFrom in --json; find one there with rt grep -n -w -F -- NAME PATH.',
  ],
  args: [{ name: 'path', summary: 'the file', required: true, complete: 'file' }],
  options: [{ long: 'names', kind: 'switch', summary: 'print only the qualified names, one a line' }],
  examples: [
    { command: 'rt outline src/cart.ts', explains: 'the definitions of src/cart.ts with their lines and LIDs' },
    { command: 'rt open src/cart.ts:@Cart.add', explains: 'then one of them, whole' },
  ],
  exits: [
    [0, 'the outline was printed (it may list no definition)'],
    [2, 'bad usage, or no language rt outlines'],
    [4, 'the file is missing, binary, unreadable or outside the root, or its grammar did not load'],
  ],
  readsStdin: false,
  async run(ctx, args, options) {
    const resolved = resolveInRoot(ctx.root, args[0]!);
    const language = await grammarFor(ctx, resolved);
    retryOnChange(() =>
      withFolderOf(resolved, (pinned) => {
        const file = openIndexed(ctx.stateOf(pinned), pinned);
        const found = outlineOfFile(resolved, language);
        const definitions = found.definitions.filter((d) => d.line <= file.total);
        const from = found.errorsFrom;
        const incomplete = from === undefined ? {} : { parseErrorsFrom: from };
        if (from !== undefined) {
          ctx.warn(`${errorsNote(file.path.display, from)} from this outline`);
          ctx.warn(`look for one by name: rt grep -n -w -F -- NAME ${quotePath(file.path.display)}`);
        }
        if (options.names) {
          const names = [...new Set(definitions.map((d) => d.qualifiedName))];
          ctx.emit({ command: 'outline', path: file.path.display, names, ...incomplete });
          for (const name of names) ctx.out(`${name}\n`);
          file.persist();
          return;
        }
        const lines = definitions.map((d) => ({
          d,
          lid: lidToString(file.lids(d.line - 1, d.line)[0]!),
          content: file.contents(d.line - 1, d.line)[0]!,
        }));
        const display = file.path.display;
        if (ctx.json)
          ctx.emit({
            command: 'outline',
            path: display,
            total: file.total,
            definitions: lines.map(({ d, lid, content }) => ({
              line: d.line,
              lid,
              content: content.toString('utf8'),
              kind: d.kind,
              name: d.name,
              qualifiedName: d.qualifiedName,
              start: d.startLine,
              end: d.endLine,
              ...(d.level !== undefined ? { level: d.level } : {}),
            })),
            ...incomplete,
          });
        if (ctx.text) {
          const count = `${lines.length} definition${lines.length === 1 ? '' : 's'}`;
          ctx.out(`${ctx.style.header(`--- ${display} (outline: ${count} of ${file.total} lines) ---`)}\n`);
          // Definitions listed by one line (an interface and its method) show it once.
          let last = 0;
          for (const { d, lid, content } of lines) {
            if (d.line !== last) ctx.out(renderWindowLines(d.line, [lid], [content], ctx.style));
            last = d.line;
          }
        }
        file.persist();
        const view = ViewState.load(ctx.stateOf(file.path), file.path.rel);
        for (const { d, lid } of lines) view.record(d.line, [lid], 'window');
        // Each listed as a definition: an edit of it by name may follow, while its lines are these. One of several
        // parts (a getter and its setter) is listed by its first line alone: not shown by this listing.
        const whole = definitions.filter((d) => !d.parts?.length);
        view.recordDefinitions(whole.map((d) => file.lids(d.startLine - 1, Math.min(d.endLine, file.total))));
        view.save();
      }),
    );
  },
});
