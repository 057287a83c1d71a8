#!/usr/bin/env node
// Build step: writes dist/cli/completion-tree.json, the command tree with the values each flag and
// argument completes to. `svc __complete` (every TAB press) reads it instead of loading commander
// and every command module; the value lists are read here once, from the modules that own them.
import { writeFileSync } from 'node:fs';
import { createTestIO } from '../dist/output/io.js';
import { fullCommandTree } from '../dist/cli/full-tree.js';
import { completionTree } from '../dist/cli/completion/tree.js';
import { OUTPUT_FORMATS } from '../dist/config/resolve.js';
import { EVENT_TYPES } from '../dist/api/schemas/events.js';
import { TRIGGERS } from '../dist/cli/commands/trigger/registry.js';
import { LOOKUP_LISTS } from '../dist/cli/completion/sources.js';
import { loadRegistry } from '../dist/cli/registry.js';
import { toolGroups } from '../dist/cli/commands/mcp/tools.js';

const program = await fullCommandTree({ io: createTestIO(), env: {}, homedir: '/nonexistent', binPath: '' });
// Filters take `family.*` patterns too (contract §10), so those complete beside the types.
const families = [...new Set(EVENT_TYPES.map((t) => `${t.split('.')[0]}.*`))];
const tree = completionTree(program, { outputFormats: OUTPUT_FORMATS, eventTypes: [...EVENT_TYPES, ...families], triggerTypes: Object.keys(TRIGGERS), toolGroups: toolGroups((await loadRegistry()).verbs) }, LOOKUP_LISTS);
writeFileSync(new URL('../dist/cli/completion-tree.json', import.meta.url), JSON.stringify(tree));
