import { loadSentryFixtures } from '@quitanda/testing';

import { recordedEvent } from '../../testing/recorded-event';
import { errorRecord } from '../../testing/records';
import { normalizeEvent } from '../ingestion/normalize-event';
import { toDetailedErrorResponse } from './dto/error.response.dto';
import { releaseShortVersion } from './release-short-version';

describe("a release's short version, as Sentry describes it", () => {
  const recorded = [
    ...new Set(
      loadSentryFixtures().flatMap((f) =>
        f.expect.events.map((e) => e.release),
      ),
    ),
  ];

  it('keeps the releases the recorded SDKs sent, plain versions', () => {
    expect(recorded).toEqual(['1.2.3']);
    expect(releaseShortVersion('1.2.3')).toBe('1.2.3');
  });

  it.each([
    ['storefront@1.0.0', '1.0.0'],
    ['web-app@2.4.1-beta.2', '2.4.1-beta.2'],
    ['com.example.app@2.1.0+301', '2.1.0 (301)'],
    ['0123456789abcdef', '0123456789ab'],
    ['f'.repeat(40), 'f'.repeat(12)],
    ['storefront@' + 'a'.repeat(40), 'a'.repeat(12)],
    ['nightly', 'nightly'],
    ['builds/2026-11-29', 'builds/2026-11-29'],
  ])('%s is %s', (version, short) => {
    expect(releaseShortVersion(version)).toBe(short);
  });

  it('is what the detailed error shows for its first and last release', () => {
    // A recorded Node event, released as `package@version` (Sentry's advice).
    const release = (version: string) =>
      normalizeEvent(
        recordedEvent('node-11.12.0/002-exception.json', { release: version }),
        { receivedAt: new Date('2026-11-27T10:00:00.000Z') },
      ).release;
    const detail = toDetailedErrorResponse(
      errorRecord({
        firstRelease: release('storefront@1.0.0'),
        lastRelease: release('storefront@1.0.1'),
      }),
      [],
      { errorUrl: 'https://errors.example.com/e/1', issueUrl: null },
    );
    expect(detail).toMatchObject({
      first_release_version: 'storefront@1.0.0',
      first_release_short_version: '1.0.0',
      last_release_version: 'storefront@1.0.1',
      last_release_short_version: '1.0.1',
    });
  });
});
