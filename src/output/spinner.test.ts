import { describe, expect, it } from 'vitest';
import { createTestIO } from './io.js';
import { startSpinner } from './spinner.js';

describe('startSpinner', () => {
  it('prints nothing at all when stderr is not a TTY', async () => {
    const io = createTestIO({ stderrTTY: false, stdoutTTY: true });
    const spinner = startSpinner(io, 'Buying +15550000001');
    spinner.update('still buying');
    await spinner.succeed('Bought');
    await spinner.fail('nope');
    await spinner.stop();
    expect(io.err()).toBe('');
    expect(io.out()).toBe('');
  });

  it('spins on stderr and leaves the final line when stderr is a TTY', async () => {
    const io = createTestIO({ stderrTTY: true, color: false });
    const spinner = startSpinner(io, 'Buying');
    // Let ora load and draw its first frame before finishing: wait for the frame, not a fixed time
    // (300 ms was not always enough on a loaded machine).
    for (let i = 0; i < 3000 && !io.err().includes('Buying'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(io.err()).toContain('Buying');
    await spinner.succeed('Bought +15550000001');
    await spinner.succeed('printed twice?');
    expect(io.err()).toContain('✔ Bought +15550000001\n');
    expect(io.err()).not.toContain('printed twice?');
    expect(io.out()).toBe('');
    // Colour is off: cursor-movement codes may appear, colour codes (SGR, `…m`) may not.
    expect(io.err()).not.toMatch(/\x1b\[[\d;]*m/);
  });

  it('prints only the final line when the work ends before ora has loaded', async () => {
    const io = createTestIO({ stderrTTY: true, color: true });
    const spinner = startSpinner(io, 'Checking');
    await spinner.fail('Check failed');
    expect(io.err()).toContain('\x1b[31m✖\x1b[39m Check failed');
  });
});
