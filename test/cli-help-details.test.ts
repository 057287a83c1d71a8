// Small things a newcomer trips on: the root help names SVC_API_KEY, `svc api`
// help shows no "(default: [])", and starting the service prints no framework deprecation warning.
import { describe, expect, it } from 'vitest';
import { createTestIO } from '../src/output/io.js';
import { runCli } from '../src/cli/main.js';
import { startTestService } from './helpers/service.js';

async function help(args: string[]): Promise<string> {
  const io = createTestIO({ stdoutTTY: false, columns: 100 });
  const code = await runCli([...args, '--help'], { io, env: {}, homedir: '/nonexistent', binPath: '' });
  expect(code).toBe(0);
  return io.out();
}

describe('help details', () => {
  it('svc --help lists the environment, SVC_API_KEY first', async () => {
    const text = await help([]);
    expect(text).toMatch(/Environment:\n {2}SVC_API_KEY /);
    expect(text).toContain('NO_COLOR');
  });

  it('svc api --help shows no empty default for a repeatable flag', async () => {
    const text = await help(['api']);
    expect(text).toContain('--field');
    expect(text).not.toContain('(default: [])');
  });
});

describe('service start', () => {
  it('emits no deprecation warning from the framework', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const svc = await startTestService();
      await new Promise((r) => setImmediate(r));
      await svc.stop();
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => `${w.name}: ${w.message}`).filter((w) => /deprecat|FSTDEP/i.test(w))).toEqual([]);
  });
});
