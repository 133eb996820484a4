// What rt mcp uses of the MCP SDK (@modelcontextprotocol/sdk), in one module: the build bundles
// it as dist/mcp.cjs of its own, which only rt mcp loads (see loadSdk.ts), so the SDK and its
// schema library cost the start-up of no other command.

export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  ErrorCode,
  McpError,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';
