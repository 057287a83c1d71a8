import { describe, expect, it } from 'vitest';
import { complete, formatCandidates, type Lookup } from './complete.js';
import type { CompletionTree } from './tree.js';

const tree: CompletionTree = {
  version: 1,
  name: 'svc',
  summary: '',
  options: [
    { names: ['-o', '--output'], summary: 'format', value: { values: ['json', 'ndjson', 'table'] } },
    { names: ['--profile'], summary: 'profile', value: { dynamic: 'profiles' } },
    { names: ['--yes'], summary: 'yes' },
  ],
  args: [],
  children: [
    {
      name: 'numbers',
      summary: 'numbers',
      options: [],
      args: [],
      children: [
        { name: 'get', summary: 'get one', options: [{ names: ['--watch'], summary: 'w' }], args: [{ dynamic: 'numbers' }], children: [] },
        { name: 'list', summary: 'list', options: [{ names: ['--status'], summary: 's', value: { values: ['live', 'idle'] } }, { names: ['--limit'], summary: 'n', value: { free: true } }], args: [], children: [] },
      ],
    },
    { name: 'events', summary: 'events', options: [], args: [], children: [{ name: 'follow', summary: 'f', options: [{ names: ['--types'], summary: 't', value: { values: ['a.x', 'a.y', 'b.z'], list: true } }], args: [], children: [] }] },
  ],
};

const seen: { source: string; settings: unknown }[] = [];
const lookup: Lookup = async (source, settings) => {
  seen.push({ source, settings: { ...settings } });
  return source === 'numbers' ? [{ value: '+14155550100', description: 'desk' }] : [{ value: 'local' }, { value: 'prod' }];
};
const values = async (...words: string[]) => (await complete(tree, words, lookup)).map((c) => c.value);

describe('complete', () => {
  it('offers the groups (and help) at the root', async () => {
    expect(await values('')).toEqual(['numbers', 'events', 'help']);
  });

  it('skips global flags and their values before the command', async () => {
    expect(await values('-o', 'json', 'num')).toEqual(['numbers', 'events', 'help']);
    expect(await values('--output=json', '--yes', 'numbers', '')).toEqual(['get', 'list']);
    // bash splits --output=json into three words
    expect(await values('--output', '=', 'json', 'numbers', '')).toEqual(['get', 'list']);
  });

  it('completes a flag value wherever the flag stands', async () => {
    expect(await values('numbers', 'list', '--status', '')).toEqual(['live', 'idle']);
    expect(await values('numbers', 'list', '-o', '')).toEqual(['json', 'ndjson', 'table']);
    expect(await values('numbers', 'list', '--output', '=', '')).toEqual(['json', 'ndjson', 'table']);
    expect(await values('numbers', 'list', '--status=')).toEqual(['--status=live', '--status=idle']);
    expect(await values('numbers', 'list', '--limit', '')).toEqual([]);
  });

  it('offers the flags of the command and the global ones', async () => {
    expect(await values('numbers', 'get', '--')).toEqual(['--watch', '--output', '--profile', '--yes']);
  });

  it('asks for ids with the settings typed on the line', async () => {
    seen.length = 0;
    expect(await values('--profile', 'prod', 'numbers', 'get', '')).toEqual(['+14155550100']);
    expect(seen).toEqual([{ source: 'numbers', settings: { profile: 'prod' } }]);
    // one positional only: nothing after it
    expect(await values('numbers', 'get', '+14155550100', '')).toEqual([]);
  });

  it('completes the last item of a comma-separated list, leaving out those given', async () => {
    expect(await values('events', 'follow', '--types', 'a.x,')).toEqual(['a.x,a.y', 'a.x,b.z']);
  });

  it('treats everything after -- as positional', async () => {
    expect(await values('numbers', 'get', '--', '-')).toEqual(['+14155550100']);
  });

  it('formats per shell: bare values for bash, tab-separated for fish, escaped colons for zsh', () => {
    const c = [{ value: 'a:b', description: 'two\twords' }];
    expect(formatCandidates('bash', c)).toBe('a:b\n');
    expect(formatCandidates('fish', c)).toBe('a:b\ttwo words\n');
    expect(formatCandidates('zsh', c)).toBe('a\\:b:two words\n');
  });
});
