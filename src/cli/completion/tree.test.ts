import { describe, expect, it } from 'vitest';
import { fullCommandTree } from '../full-tree.js';
import { createTestIO } from '../../output/io.js';
import { OUTPUT_FORMATS } from '../../output/formatters.js';
import { completionTree, type CompletionCommand } from './tree.js';
import { complete, type Lookup } from './complete.js';

// The tree `svc __complete` reads, built from the real commands: which arguments and flag values
// ask the local service for ids.

async function realTree() {
  const program = await fullCommandTree({ io: createTestIO(), env: {}, homedir: '/nonexistent', binPath: '' });
  return completionTree(program, { outputFormats: OUTPUT_FORMATS, eventTypes: [], triggerTypes: [], toolGroups: [] });
}

const at = (root: CompletionCommand, ...path: string[]): CompletionCommand =>
  path.reduce((cmd, name) => cmd.children.find((c) => c.name === name)!, root);

describe('completion tree', () => {
  it('messages get completes message ids, messages send --from the account numbers, calls get call ids', async () => {
    const tree = await realTree();
    expect(at(tree, 'messages', 'get').args).toEqual([{ dynamic: 'messages' }]);
    expect(at(tree, 'messages', 'send').options.find((o) => o.names.includes('--from'))?.value).toEqual({ dynamic: 'numbers' });
    expect(at(tree, 'calls', 'get').args[0]).toEqual({ dynamic: 'calls' });
    // The recipient is anyone: nothing to offer.
    expect(at(tree, 'messages', 'send').options.find((o) => o.names.includes('--to'))?.value).toEqual({ free: true });

    const lookup: Lookup = async (source) =>
      source === 'messages' ? [{ value: 'msg_lzTOcfKdfTmly4HUFYrt' }] : source === 'numbers' ? [{ value: '+14155550100' }] : [];
    expect((await complete(tree, ['messages', 'get', ''], lookup)).map((c) => c.value)).toEqual(['msg_lzTOcfKdfTmly4HUFYrt']);
    expect((await complete(tree, ['messages', 'send', '--to', '+14155550123', '--from', ''], lookup)).map((c) => c.value)).toEqual(['+14155550100']);
  });
});
