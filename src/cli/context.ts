// Everything a command touches of the world, in one object that tests can replace.

import { IndexChecks, type CheckedFile } from '../store/indexChecks.js';
import { findRoot, type Root } from '../store/root.js';
import { StateStore } from '../store/state.js';
import type { Settings } from '../settings/env.js';
import type { StdinSource } from '../io/stdin.js';
import { colorLevel, PLAIN, styleFor, type ColorChoice, type Style } from '../render/style.js';

export interface Sink {
  write(chunk: string | Uint8Array): unknown;
  readonly isTTY?: boolean;
}

export interface Streams {
  readonly stdout: Sink;
  readonly stderr: Sink;
}

export class Context {
  private rootCache: Root | undefined;
  private readonly stateStores = new Map<string, StateStore>();
  private readonly warned = new Set<string>();

  constructor(
    readonly cwd: string,
    /** What the RT_* variables set, read once, with the whole environment (settings.env). */
    readonly settings: Settings,
    readonly streams: Streams,
    readonly stdin: StdinSource,
    private readonly rootOverride: string | undefined,
    /** --json: commands emit one document (instead of text, unless `jsonSink` is given). */
    readonly json = false,
    private readonly color: ColorChoice = 'auto',
    /**
     * Where the --json document goes when a run yields both it and the text (rt mcp, whose tool
     * results carry both from one run: an edit cannot be run twice). Without it, a run with
     * --json writes only its document, to stdout.
     */
    private readonly jsonSink?: Sink,
    /** Its output is held in memory and sent once the run has ended (rt mcp): see Workspace.outputHeld. */
    readonly outputHeld = false,
  ) {
    this.text = !json || jsonSink !== undefined;
  }

  /** The environment rt was started with. */
  get env(): NodeJS.ProcessEnv {
    return this.settings.env;
  }

  /** Whether the run prints text: without --json, or beside the document (see jsonSink). */
  readonly text: boolean;

  private styleCache: Style | undefined;

  /** How text output is coloured (never in JSON). */
  get style(): Style {
    return (this.styleCache ??= this.json
      ? PLAIN
      : styleFor(colorLevel(this.color, this.env, this.streams.stdout.isTTY === true)));
  }

  /**
   * The session RT_SESSION names (checked: a bad name is refused before anything runs); undefined for the shared one.
   */
  get session(): string | undefined {
    return this.settings.session;
  }

  /** Called with each other state root the command's paths lead into (see Root.onStateRoot). */
  onStateRoot: ((dir: string) => void) | undefined;

  get root(): Root {
    const onStateRoot = (dir: string) => this.onStateRoot?.(dir);
    return (this.rootCache ??= {
      ...findRoot(this.cwd, this.rootOverride || this.settings.root),
      onStateRoot,
    });
  }

  /** The state of `file`: in the `.rt/` of its own state root (see ResolvedPath.stateRoot). */
  stateOf(file: { readonly stateRoot: string }): StateStore {
    let store = this.stateStores.get(file.stateRoot);
    if (!store)
      this.stateStores.set(
        file.stateRoot,
        (store = new StateStore(file.stateRoot, this.settings, (m) => this.warn(m))),
      );
    return store;
  }

  private indexChecks: IndexChecks | undefined;

  /** Whether the state knows the listed file `abs` to be text as it is now (a search's check: see IndexChecks). */
  knownText(abs: string): boolean {
    return (this.indexChecks ??= new IndexChecks(this)).knownText(abs);
  }

  /** The check knownText made of `abs`, for the report of its hits. */
  checkedIndex(abs: string): CheckedFile | undefined {
    return this.indexChecks?.take(abs);
  }

  /** Saves what the command staged of the state of every root it touched (see StateStore.flush). */
  flushState(): void {
    for (const store of this.stateStores.values()) store.flush();
  }

  /** Text output (nothing when the run prints only its --json document). */
  out(chunk: string | Uint8Array): void {
    if (this.text) this.streams.stdout.write(chunk);
  }

  /** A piece of the --json document, written as it is made (nothing without --json). */
  jsonOut(chunk: string): void {
    if (this.json) (this.jsonSink ?? this.streams.stdout).write(chunk);
  }

  /** The --json document of this run. */
  emit(doc: Record<string, unknown>): void {
    this.jsonOut(`${JSON.stringify(doc)}\n`);
  }

  /** An `rt: ` line on stderr, each distinct message once per run. */
  warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.streams.stderr.write(`rt: ${message}\n`);
  }
}
