// The MCP tools' bounds (cli.md "Agents"), read by `svc mcp`'s waiting tools and said in the
// service's OpenAPI description of /mcp.

/** Seconds a waiting tool (`wait_for_event`, `wait_for_email`) waits when the call says nothing. */
export const MCP_WAIT_DEFAULT_SECS = 30;
/**
 * The longest a waiting tool waits: over HTTP a call holds a connection (and one of its key's MCP
 * requests) that long, and MCP clients give up on a request after 60 s unless told otherwise.
 */
export const MCP_WAIT_MAX_SECS = 120;
