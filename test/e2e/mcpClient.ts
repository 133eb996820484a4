// A client of `rt mcp` started in a folder, over stdio with the MCP SDK's own client, for the
// end-to-end tests that call its tools (kept apart from harness.ts: only these load the SDK).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv, RT_BIN } from './harness.js';

/** A tool call's result as the tests read it. */
export type ToolResult = {
  content: Array<{ text: string }>;
  isError?: boolean;
  structuredContent?: Record<string, any>;
};

/** `rt mcp` started in `dir` and a client connected to it; `call` runs one tool. Close the client when done. */
export async function mcpClient(
  dir: string,
  name = 'rt-tests',
): Promise<{
  client: Client;
  transport: StdioClientTransport;
  call: (tool: string, args: Record<string, unknown>) => Promise<ToolResult>;
}> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [RT_BIN, 'mcp'],
    cwd: dir,
    env: cleanEnv() as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name, version: '0.0.0' });
  await client.connect(transport);
  const call = async (tool: string, args: Record<string, unknown>) =>
    (await client.callTool({ name: tool, arguments: args })) as ToolResult;
  return { client, transport, call };
}
