import { InvalidRelease, Release } from '@sentry/release-parser';

/**
 * A release as Sentry shows it (`Release.describe` of getsentry's
 * sentry-release-parser): the version without its package
 * (`storefront@1.0.0` is `1.0.0`), a build hash cut to 12 characters, a
 * build code in parentheses. A name Sentry refuses as a release (a slash,
 * over 250 characters) is shown whole: the collector stores it anyway.
 */
export function releaseShortVersion(version: string | null): string | null {
  if (version === null) return null;
  try {
    return new Release(version).describe();
  } catch (error) {
    if (error instanceof InvalidRelease) return version;
    throw error;
  }
}
