// MCP over stdio: one JSON-RPC message a line, each way. The SDK's own stdio transport ends the
// connection on a message over its buffer's size and passes over a line that is not JSON without
// a word; rt mcp must outlive both. This one answers them as JSON-RPC says (-32700 for
// a line that does not parse, -32600 for one that is no message or is too long) and goes on.

import type { Readable, Writable } from 'node:stream';
import type { Sdk } from './loadSdk.js';

type Message = Parameters<NonNullable<LineTransport['onmessage']>>[0];

/** The longest message read: a patch or a new file's text of up to some 64 MiB. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** How much of a line too long is kept, to find its request's id in. */
const HEAD_KEPT = 4096;

export class LineTransport {
  onmessage?: (message: import('@modelcontextprotocol/sdk/types.js').JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private parts: Buffer[] = [];
  private length = 0;
  /** A line over the limit, being passed over to its end: its head and length so far. */
  private skipping: { head: Buffer; length: number } | undefined;
  private closed = false;
  /** Requests received and not answered yet: when the input ends, they are answered before closing. */
  private pending = 0;
  private ending = false;

  constructor(
    private readonly sdk: Sdk,
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onInputEnd);
    this.input.on('error', this.onEnd);
    this.output.on('error', this.onEnd);
  }

  async send(message: Message): Promise<void> {
    if (this.closed) return;
    const line = `${JSON.stringify(message)}\n`;
    const answers = 'id' in message && ('result' in message || 'error' in message) && message.id !== null;
    if (!this.output.write(line)) await new Promise<void>((resolve) => this.output.once('drain', resolve));
    if (answers && this.pending > 0 && --this.pending === 0 && this.ending) void this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onInputEnd);
    this.input.off('error', this.onEnd);
    this.input.pause();
    this.onclose?.();
  }

  private readonly onEnd = (): void => {
    void this.close();
  };

  /** The client sent all it will: the calls still running are answered, then the connection closes. */
  private readonly onInputEnd = (): void => {
    this.ending = true;
    if (this.pending === 0) void this.close();
  };

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (data.length > 0 && !this.closed) {
      const nl = data.indexOf(0x0a);
      const part = nl === -1 ? data : data.subarray(0, nl);
      data = nl === -1 ? Buffer.alloc(0) : data.subarray(nl + 1);
      if (this.skipping) {
        this.skipping.length += part.length;
        if (nl !== -1) this.tooLong();
        continue;
      }
      if (this.length + part.length > this.maxBytes) {
        const head = Buffer.concat([...this.parts, part]).subarray(0, HEAD_KEPT);
        this.skipping = { head: Buffer.from(head), length: this.length + part.length };
        this.parts = [];
        this.length = 0;
        if (nl !== -1) this.tooLong();
        continue;
      }
      this.parts.push(part);
      this.length += part.length;
      if (nl === -1) continue;
      const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
      this.parts = [];
      this.length = 0;
      this.receive(line);
    }
  };

  /** A whole line: a message, or the error it gets back. */
  private receive(line: string): void {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      this.reply(null, -32700, `Parse error: ${(error as Error).message}`);
      return;
    }
    const checked = this.sdk.JSONRPCMessageSchema.safeParse(parsed);
    if (!checked.success) {
      const id = (parsed as { id?: unknown } | null)?.id;
      this.reply(
        typeof id === 'string' || typeof id === 'number' ? id : null,
        -32600,
        'Invalid Request: not a JSON-RPC 2.0 message',
      );
      return;
    }
    const message = checked.data;
    if ('method' in message && 'id' in message) this.pending++;
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  private tooLong(): void {
    const { head, length } = this.skipping!;
    this.skipping = undefined;
    const id = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/.exec(head.toString('utf8'))?.[1];
    this.reply(
      id === undefined ? null : JSON.parse(id),
      -32600,
      `Invalid Request: the message is ${length} bytes, over the ${this.maxBytes} rt mcp reads; ` +
        'send less (a smaller patch, or several calls)',
    );
  }

  private reply(id: string | number | null, code: number, message: string): void {
    this.onerror?.(new Error(message));
    // (An answer to a message with an id, counted as the answers of requests are.)
    if (id !== null) this.pending++;
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as Message);
  }
}
