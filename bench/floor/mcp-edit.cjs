// The floor of an `rt mcp` one-line edit: an MCP server on the same SDK and transport whose one
// tool, `edit`, does the least a durable edit with its state can do — it reads the file, puts the
// new text in place of line `n`, writes the file to a temporary name, fsyncs it, renames it over
// the file and fsyncs the folder (the file's own durable write, as rt's), then appends one record
// of the change (what rt's history, index and view would say) to a state file and fsyncs that
// (the one durable write beside the file's own that rt's state may take). No LIDs, no lock, no
// check, no history to undo. `rt mcp`'s edit can be no faster than this on the same disk.
// Usage: node mcp-edit.cjs (in the folder of the files; a stdio MCP server)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { CallToolRequestSchema, ListToolsRequestSchema } = require('@modelcontextprotocol/sdk/types.js');

const server = new Server({ name: 'floor', version: '0' }, { capabilities: { tools: {} } });
const tool = {
  name: 'edit',
  description: 'Puts text in place of line n of path, durably.',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, n: { type: 'number' }, text: { type: 'string' } },
    required: ['path', 'n', 'text'],
  },
};
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [tool] }));

const stateFile = path.resolve('.floor-state');
const folder = fs.openSync('.', 'r');

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { path: file, n, text } = request.params.arguments;
  const abs = path.resolve(file);
  const old = fs.readFileSync(abs);
  // The byte offsets of line n (1-based) and of the line after it.
  let start = 0;
  for (let i = 1; i < n; i++) start = old.indexOf(10, start) + 1;
  const end = old.indexOf(10, start) + 1;
  const next = Buffer.concat([old.subarray(0, start), Buffer.from(text), old.subarray(end)]);
  const temp = `${abs}.floor-tmp`;
  const fd = fs.openSync(temp, 'w');
  fs.writeSync(fd, next);
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(temp, abs);
  fs.fsyncSync(folder);
  const record = JSON.stringify({ file, n, old: old.subarray(start, end).toString(), text, at: Date.now() });
  const state = fs.openSync(stateFile, 'a');
  fs.writeSync(state, `${record}\n`);
  fs.fsyncSync(state);
  fs.closeSync(state);
  return { content: [{ type: 'text', text: `edited ${file}:${n}` }] };
});

server.connect(new StdioServerTransport());
