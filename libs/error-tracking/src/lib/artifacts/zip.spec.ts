import { makeZip } from '../../testing/make-zip';
import { parseArtifactBundle } from './artifact-bundle';
import { readZip } from './zip';

const manifest = (files: Record<string, unknown>, extra = {}) =>
  Buffer.from(JSON.stringify({ files, ...extra }));

describe('readZip', () => {
  it('reads stored and deflated entries', () => {
    const files = readZip(
      makeZip([
        { name: 'a.txt', data: Buffer.from('stored') },
        { name: 'dir/', data: Buffer.alloc(0) },
        {
          name: 'b.txt',
          data: Buffer.from('deflated '.repeat(50)),
          deflate: true,
        },
      ]),
      1 << 20,
    );
    expect([...files.keys()]).toEqual(['a.txt', 'b.txt']);
    expect(files.get('b.txt')?.toString()).toBe('deflated '.repeat(50));
  });

  it('stops a bomb: inflation ends at the declared size, and the declared total at the limit', () => {
    const bomb = Buffer.alloc(10 << 20);
    expect(() =>
      readZip(
        makeZip([{ name: 'x', data: bomb, deflate: true, declaredSize: 100 }]),
        1 << 30,
      ),
    ).toThrow(/x cannot be inflated/);
    expect(() =>
      readZip(makeZip([{ name: 'x', data: bomb, deflate: true }]), 1 << 20),
    ).toThrow(/larger than 1048576 bytes/);
  });

  it('refuses what is not a zip, a corrupt directory and a wrong checksum', () => {
    expect(() => readZip(Buffer.from('not a zip at all, no'), 100)).toThrow(
      /not a zip/,
    );
    const good = makeZip([{ name: 'a', data: Buffer.from('abc') }]);
    expect(() => readZip(good.subarray(10), 100)).toThrow();
    expect(() =>
      readZip(makeZip([{ name: 'a', data: Buffer.from('abc'), crc: 1 }]), 100),
    ).toThrow(/does not match/);
  });
});

describe('parseArtifactBundle', () => {
  it("reads sentry-cli's manifest: types, URLs, debug ids and sourcemap headers", () => {
    const bundle = parseArtifactBundle(
      makeZip([
        {
          name: 'manifest.json',
          data: manifest(
            {
              'files/_/_/a.min.js': {
                type: 'minified_source',
                url: '~/a.min.js',
                headers: {
                  'Debug-Id': 'D627B5FDD9D051B7A35CEFB8BB13C281',
                  sourcemap: 'a.min.js.map',
                },
              },
              'files/_/_/a.min.js.map': {
                type: 'source_map',
                url: '~/a.min.js.map',
              },
            },
            {
              debug_id: '4f5f73c5-f6bb-5474-a4f0-6d53822551eb',
              release: '1.0.0',
            },
          ),
        },
        { name: 'files/_/_/a.min.js', data: Buffer.from('x()'), deflate: true },
        { name: 'files/_/_/a.min.js.map', data: Buffer.from('{}') },
      ]),
      1 << 20,
    );
    expect(bundle).toMatchObject({
      bundleId: '4f5f73c5-f6bb-5474-a4f0-6d53822551eb',
      release: '1.0.0',
      dist: null,
      files: [
        {
          type: 'minified_source',
          url: '~/a.min.js',
          debugId: 'd627b5fd-d9d0-51b7-a35c-efb8bb13c281',
          sourcemap: 'a.min.js.map',
        },
        {
          type: 'source_map',
          url: '~/a.min.js.map',
          debugId: null,
          sourcemap: null,
        },
      ],
    });
  });

  it.each([
    [
      'no manifest',
      [{ name: 'a', data: Buffer.from('a') }],
      /no manifest\.json/,
    ],
    [
      'a manifest that is not JSON',
      [{ name: 'manifest.json', data: Buffer.from('{') }],
      /not JSON/,
    ],
    [
      'a listed file missing from the archive',
      [
        {
          name: 'manifest.json',
          data: manifest({ 'files/x': { type: 'source_map', url: '~/x' } }),
        },
      ],
      /not in the archive/,
    ],
    [
      'a file without URL',
      [
        {
          name: 'manifest.json',
          data: manifest({ x: { type: 'source_map' } }),
        },
        { name: 'x', data: Buffer.from('{}') },
      ],
      /no valid url/,
    ],
  ])('refuses a bundle with %s, saying why', (_what, entries, reason) => {
    expect(() => parseArtifactBundle(makeZip(entries), 1 << 20)).toThrow(
      reason,
    );
  });
});
