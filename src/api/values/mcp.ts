// What `svc mcp` and the service's /mcp agree on (cli.md "Agents"): the waiting tools' bounds and
// how a list of groups is read. Zod-free: the CLI and the server both import it.

/** Seconds a waiting tool (`wait_for_event`, `wait_for_email`) waits when the call says nothing. */
export const MCP_WAIT_DEFAULT_SECS = 30;
/**
 * The longest a waiting tool waits: over HTTP a call holds a connection (and one of its key's MCP
 * requests) that long, and MCP clients give up on a request after 60 s unless told otherwise.
 */
export const MCP_WAIT_MAX_SECS = 120;

/**
 * `svc mcp --groups a,b` and `/mcp?groups=a,b`: the groups named (blanks and repeats dropped), each
 * one with a tool (`known`), or why not, in words each surface puts beside its flag or parameter.
 */
export function readToolGroups(raw: string, known: readonly string[]): { groups: string[] } | { refused: string } {
  const groups = [...new Set(raw.split(',').map((g) => g.trim()).filter((g) => g !== ''))];
  const unknown = groups.filter((g) => !known.includes(g));
  if (groups.length > 0 && unknown.length === 0) return { groups };
  return { refused: `${unknown.length ? `no tools in ${unknown.map((g) => `"${g}"`).join(', ')}` : 'give at least one group'}; the groups are ${known.join(', ')}` };
}
