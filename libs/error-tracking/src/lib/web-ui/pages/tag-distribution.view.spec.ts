import { percent, tagDistributionView } from './tag-distribution.view';

describe('the tags panel', () => {
  it('writes shares as whole percents, a sliver as <1%', () => {
    expect(percent(1)).toBe('100%');
    expect(percent(2 / 3)).toBe('67%');
    expect(percent(0.004)).toBe('<1%');
    expect(percent(0)).toBe('0%');
  });

  it('shows each key with its events, values, counts and escaped values', () => {
    const page = tagDistributionView([
      {
        key: 'browser',
        total: 4,
        uniqueValues: 2,
        topValues: [
          {
            value: '<b>Chrome</b>',
            count: 3,
            share: 0.75,
            firstSeen: new Date(0),
            lastSeen: new Date(0),
          },
          {
            value: 'Firefox',
            count: 1,
            share: 0.25,
            firstSeen: new Date(0),
            lastSeen: new Date(0),
          },
        ],
      },
    ]).value;
    expect(page).toContain('data-tag-key="browser"');
    expect(page).toContain('4 events');
    expect(page).toMatch(/2\s+values/);
    expect(page).toContain('&lt;b&gt;Chrome&lt;/b&gt;');
    expect(page).not.toContain('<b>Chrome');
    expect(page).toContain('>75%<');
    expect(page).toContain('width="75.0"');
  });

  it('says so when no kept event has a tag', () => {
    expect(tagDistributionView([]).value).toContain(
      'No tags on the kept events.',
    );
  });
});
