import { describe, it, expect } from 'vitest';
import { interruptSignal } from './long-running.js';
import { CliContext } from './context.js';
import { createTestIO } from '../output/io.js';

describe('interruptSignal', () => {
  for (const tty of [true, false]) {
    it(`aborts on Ctrl-C and ${tty ? 'ends the ^C line on a terminal' : 'writes nothing when piped'}`, async () => {
      let press!: () => void;
      const pressed = new Promise<void>((r) => (press = r));
      const io = createTestIO({ stderrTTY: tty });
      const ctx = new CliContext({ io, env: {}, homedir: '/nonexistent', binPath: '', waitForInterrupt: () => pressed }, {});
      const signal = interruptSignal(ctx);
      expect(signal.aborted).toBe(false);
      press();
      await new Promise((r) => setTimeout(r, 0));
      expect(signal.aborted).toBe(true);
      expect(io.err()).toBe(tty ? '\n' : '');
    });
  }
});
