import { GROUPS } from './groups.js';
import type { RegisteredVerb } from './host.js';

export type { RegisteredVerb };

// Every verb on the registry, by group. Loading it imports every group's definitions (not
// what they run): for `svc mcp`, the docs and the tests, never on a single command's path.

/** Every registered verb, in the groups' order; `pending` lists the groups not converted yet. */
export async function loadRegistry(): Promise<{ verbs: RegisteredVerb[]; pending: string[] }> {
  const verbs: RegisteredVerb[] = [];
  const pending: string[] = [];
  for (const [group, entry] of Object.entries(GROUPS)) {
    const mod = await entry.load();
    // A group may be a verb itself (`svc api`, `svc trigger --list`) and have verbs under it too.
    if ('command' in mod && mod.command) verbs.push({ group, path: [], verb: mod.command });
    if ('verbs' in mod) for (const verb of mod.verbs) verbs.push({ group, path: verb.name.split(' '), verb });
    if (!('command' in mod) && !('verbs' in mod)) pending.push(group);
  }
  return { verbs, pending };
}
