import { describe, expect, it } from 'vitest';
import { pagesAhead } from './list.js';

/** Pages 1..n from a source that counts how many were asked for. */
function countingPages(n: number) {
  const state = { asked: 0 };
  async function* pages(): AsyncGenerator<number> {
    for (let page = 1; page <= n; page++) {
      state.asked = page;
      await new Promise((resolve) => setImmediate(resolve));
      yield page;
    }
  }
  return { state, pages: pages() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('pagesAhead', () => {
  it('yields every page in order and asks for the next while the caller works on the current one, never two ahead', async () => {
    const { state, pages } = countingPages(5);
    const got: number[] = [];
    for await (const page of pagesAhead(pages)) {
      // The caller prints slowly: the next page is in flight, the one after is not.
      for (let i = 0; i < 5; i++) await tick();
      expect(state.asked).toBe(Math.min(page + 1, 5));
      got.push(page);
    }
    expect(got).toEqual([1, 2, 3, 4, 5]);
  });

  it('a failed request surfaces when its page is reached, after the pages before it', async () => {
    async function* failing(): AsyncGenerator<number> {
      yield 1;
      yield 2;
      throw new Error('connection reset');
    }
    const got: number[] = [];
    await expect(
      (async () => {
        for await (const page of pagesAhead(failing())) got.push(page);
      })(),
    ).rejects.toThrow('connection reset');
    expect(got).toEqual([1, 2]);
  });

  it('a caller that stops early (a closed pipe) leaves no unhandled rejection behind', async () => {
    async function* failingAfterOne(): AsyncGenerator<number> {
      yield 1;
      throw new Error('the service went away');
    }
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      for await (const page of pagesAhead(failingAfterOne())) {
        expect(page).toBe(1);
        break;
      }
      for (let i = 0; i < 5; i++) await tick();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});
