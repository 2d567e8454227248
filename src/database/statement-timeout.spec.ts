import { isBackgroundWork, runAsBackgroundWork } from './statement-timeout';

/** The own symbol properties of a promise that hold `true`: where an enabled AsyncLocalStorage (Node 20) keeps a store. */
function storesOf(promise: Promise<unknown>): symbol[] {
  const record = promise as unknown as Record<symbol, unknown>;
  return Object.getOwnPropertySymbols(promise).filter((key) => record[key] === true);
}

describe('runAsBackgroundWork', () => {
  it('marks what the work awaits as background, and nothing outside it', async () => {
    expect(isBackgroundWork()).toBe(false);
    const seen = await runAsBackgroundWork(async () => {
      const before = isBackgroundWork();
      await new Promise((resolve) => setImmediate(resolve));
      return [before, isBackgroundWork()];
    });
    expect(seen).toEqual([true, true]);
    expect(isBackgroundWork()).toBe(false);
  });

  it('keeps concurrent and nested runs background until each has settled', async () => {
    let finishFirst: () => void = () => undefined;
    const first = runAsBackgroundWork(async () => {
      await new Promise<void>((resolve) => (finishFirst = resolve));
      return isBackgroundWork();
    });
    const second = await runAsBackgroundWork(async () => {
      const nested = await runAsBackgroundWork(async () => isBackgroundWork());
      await new Promise((resolve) => setImmediate(resolve));
      return [nested, isBackgroundWork()];
    });
    // The first run is still waiting: its own continuation must still see the store.
    finishFirst();
    expect(await first).toBe(true);
    expect(second).toEqual([true, true]);
    expect(isBackgroundWork()).toBe(false);
  });

  it('settles as the work does, also when it throws or rejects', async () => {
    await expect(runAsBackgroundWork(() => Promise.reject(new Error('rejected')))).rejects.toThrow('rejected');
    expect(() =>
      runAsBackgroundWork(() => {
        throw new Error('thrown');
      }),
    ).toThrow('thrown');
    expect(isBackgroundWork()).toBe(false);
    expect(await runAsBackgroundWork(async () => isBackgroundWork())).toBe(true);
  });

  it('leaves no store on the promises created after the last run settled (the promise hooks are off again)', async () => {
    let during: symbol[] = [];
    await runAsBackgroundWork(async () => {
      during = storesOf(Promise.resolve());
    });
    const after = Promise.resolve();
    // Node 20 keeps the store on each promise under a symbol of the storage; a later Node may keep it elsewhere,
    // in which case there is nothing to see either way.
    const leftOver = Object.getOwnPropertySymbols(after).filter((key) => during.includes(key));
    expect(leftOver).toEqual([]);
  });
});
