// `svc keys create` never makes a live key silently: on a terminal it asks which kind.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { CliContext } from '../src/cli/context.js';
import { createTestIO } from '../src/output/io.js';
import type { Prompter } from '../src/cli/prompter.js';
import { runCreate } from '../src/cli/commands/keys/create.run.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

it('asks for the mode on a terminal, offering test first, and creates the key chosen', async () => {
  const asked: Array<{ message: string; values: string[]; flag: string }> = [];
  const never = async (): Promise<never> => {
    throw new Error('unexpected prompt');
  };
  const prompter: Prompter = {
    enabled: true,
    input: never,
    password: never,
    confirm: never,
    select: async (message, choices, opts) => {
      asked.push({ message, values: choices.map((c) => c.value), flag: opts.flag });
      return 'test' as never;
    },
  };
  const io = createTestIO({ stdoutTTY: false, stderrTTY: true, stdinTTY: true });
  const tmp = mkdtempSync(join(tmpdir(), 'svc-keys-mode-'));
  const ctx = new CliContext({ io, env: { SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.bootstrap.liveKey, SVC_CONFIG_DIR: join(tmp, 'cfg') }, homedir: tmp, binPath: '', prompter }, {});
  await runCreate(ctx, { name: 'asked' });
  expect(asked).toEqual([{ message: 'Which kind of key?', values: ['test', 'live'], flag: '--mode' }]);
  expect(JSON.parse(io.out())).toMatchObject({ name: 'asked', mode: 'test', key: expect.stringMatching(/^sk_test_/) });
  await ctx.close();
});
