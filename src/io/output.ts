// Standard output and error written straight to their file descriptors.
//
// Node's process.stdout is a stream whose first use loads the tty or net modules (a pipe is a
// socket to Node): a few milliseconds that every rt run would pay. rt writes little and is done
// in one go, so it buffers stdout and writes it with fs.writeSync, as C tools do: in order, whole,
// and flushed before anything goes to stderr so that a terminal shows both in the order written.

import fs from 'node:fs';

/** Flush once this much output is waiting. */
const FLUSH_AT = 1 << 16;

/**
 * Whether `fd` is a terminal: only a character device other than /dev/null (where benchmarks
 * send output) can be, and only then is the tty module loaded to ask.
 */
export function isTerminal(fd: number): boolean {
  try {
    const st = fs.fstatSync(fd);
    if (!st.isCharacterDevice() || st.rdev === fs.statSync('/dev/null', { throwIfNoEntry: false })?.rdev) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

export class FdSink {
  /** Output waiting, copied in as written: one buffer reused, not a Buffer a line then joined. */
  private readonly pool = Buffer.allocUnsafe(FLUSH_AT);
  private size = 0;
  private tty: boolean | undefined;

  /**
   * `closed` is called when the reader went away (EPIPE) and `failed` on any other write error;
   * `before` runs before each write of this sink (stderr flushes stdout first).
   */
  constructor(
    private readonly fd: number,
    private readonly buffered: boolean,
    private readonly closed: () => void,
    private readonly failed: (code: string) => void,
    private readonly before: () => void = () => undefined,
  ) {}

  get isTTY(): boolean {
    return (this.tty ??= isTerminal(this.fd));
  }

  write(chunk: string | Uint8Array): boolean {
    if (chunk.length === 0) return true;
    // A string that surely fits (3 bytes at most a UTF-16 unit) is encoded straight into the pool.
    if (typeof chunk === 'string' && chunk.length * 3 <= FLUSH_AT - this.size)
      this.size += this.pool.write(chunk, this.size, 'utf8');
    else {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      if (buf.byteLength > FLUSH_AT - this.size) this.flush();
      if (buf.byteLength >= FLUSH_AT) {
        this.send(buf);
        return true;
      }
      this.pool.set(buf, this.size);
      this.size += buf.byteLength;
    }
    if (!this.buffered) this.flush();
    return true;
  }

  /** Writes out everything waiting. */
  flush(): void {
    if (this.size === 0) return;
    const size = this.size;
    this.size = 0;
    this.send(this.pool.subarray(0, size));
  }

  /** Writes `data` whole (after what `before` writes), waiting for a full pipe. */
  private send(data: Uint8Array): void {
    this.before();
    let done = 0;
    while (done < data.length) {
      try {
        done += fs.writeSync(this.fd, data, done, data.length - done);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        // A non-blocking pipe that is full: wait for the reader a moment and go on.
        if (code === 'EAGAIN') {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
          continue;
        }
        if (code === 'EPIPE') this.closed();
        else this.failed(code);
        return;
      }
    }
  }
}

/** rt's stdout (buffered) and stderr (written at once, after stdout's waiting output). */
export function processSinks(): { stdout: FdSink; stderr: FdSink } {
  // A closed pipe (rt … | head -1) ends quietly; any other failure to write output is said.
  const stdout: FdSink = new FdSink(
    1,
    true,
    () => process.exit(0),
    (code) => {
      stderr.write(`rt: cannot write the output: ${code}\n`);
      process.exit(4);
    },
  );
  const stderr: FdSink = new FdSink(
    2,
    false,
    () => undefined,
    () => undefined,
    () => stdout.flush(),
  );
  process.on('exit', () => stdout.flush());
  return { stdout, stderr };
}
