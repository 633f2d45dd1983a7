import { currentCaller, identifyCaller, runAsCaller } from './caller-scope';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('caller scope', () => {
  it('names no caller outside a scope', () => {
    expect(currentCaller()).toBeUndefined();
  });

  it('names the identified caller across awaits, else the fallback (asked once, when needed)', async () => {
    const request = {};
    const fallback = jest.fn(() => 'address:10.0.0.1');
    const seen = await runAsCaller(request, fallback, async () => {
      await tick();
      const before = [currentCaller(), currentCaller()];
      identifyCaller(request, 'user:ana');
      await tick();
      return [...before, currentCaller()];
    });
    expect(seen).toEqual(['address:10.0.0.1', 'address:10.0.0.1', 'user:ana']);
    expect(fallback).toHaveBeenCalledTimes(1);
  });

  it('keeps concurrent requests apart, even identified before their scope began', async () => {
    const [ana, bruno] = [{}, {}];
    identifyCaller(ana, 'user:ana');
    const both = await Promise.all(
      [ana, bruno].map((request) =>
        runAsCaller(
          request,
          () => 'address:10.0.0.2',
          async () => {
            await tick();
            return currentCaller();
          },
        ),
      ),
    );
    expect(both).toEqual(['user:ana', 'address:10.0.0.2']);
  });
});
