// Colour libraries colour on their own whenever they think the terminal allows it (FORCE_COLOR, a
// TTY); cli-table3 used to colour headers and borders that way. The spec wants NO_COLOR honoured by
// our code, so with colour disabled not one escape code may come out, even with FORCE_COLOR set.
// Tables are now drawn by table.ts itself; this guards against any library (chalk included)
// deciding for us again. This file runs in its own worker, so the variable is seen at first load.
import { describe, expect, it } from 'vitest';

process.env.FORCE_COLOR = '1';

describe('tables with the library forced into colour', () => {
  it('still print no ANSI escapes when our colour is off', async () => {
    const { createTestIO } = await import('./io.js');
    const { printList, printResource } = await import('./formatters.js');
    const io = createTestIO({ stdoutTTY: true, color: false });
    await printList(io, [{ id: 'a', status: 'failed' }]);
    await printResource(io, { id: 'a', status: 'failed' });
    expect(io.out()).toContain('failed');
    expect(io.out()).not.toMatch(/[│─┌]/);
    expect(io.out()).not.toContain('\x1b[');
  });
});
