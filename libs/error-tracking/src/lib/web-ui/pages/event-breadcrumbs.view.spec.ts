import {
  BREADCRUMBS_SHOWN,
  breadcrumbsView,
  crumbTime,
  offsetText,
} from './event-breadcrumbs.view';

const EVENT = new Date('2026-06-01T10:00:00.000Z');

describe('breadcrumbs', () => {
  it('reads unix seconds (number or text) and RFC 3339 times', () => {
    expect(crumbTime(1780308000.5)?.toISOString()).toBe(
      '2026-06-01T10:00:00.500Z',
    );
    expect(crumbTime('1780308000')?.toISOString()).toBe(
      '2026-06-01T10:00:00.000Z',
    );
    expect(crumbTime('2026-06-01T09:59:58Z')?.toISOString()).toBe(
      '2026-06-01T09:59:58.000Z',
    );
    expect(crumbTime('yesterday')).toBeNull();
    expect(crumbTime(undefined)).toBeNull();
  });

  it('says how long before (or after) the event a breadcrumb was', () => {
    const at = (ms: number) => new Date(EVENT.getTime() + ms);
    expect(offsetText(at(-2_345), EVENT)).toBe('-2.35 s');
    expect(offsetText(at(-185_000), EVENT)).toBe('-3 min 5 s');
    expect(offsetText(at(-7_800_000), EVENT)).toBe('-2 h 10 min');
    expect(offsetText(at(1_000), EVENT)).toBe('+1.00 s');
  });

  it('shows a timeline oldest first, only the latest of a long trail', () => {
    const crumbs = Array.from({ length: BREADCRUMBS_SHOWN + 5 }, (_, i) => ({
      timestamp: EVENT.getTime() / 1000 - 1000 + i,
      category: 'log',
      message: `step ${i}`,
    }));
    const out = breadcrumbsView(
      { breadcrumbs: { values: crumbs } },
      EVENT,
    ).value;
    expect(out).toContain(`Breadcrumbs (${BREADCRUMBS_SHOWN + 5})`);
    expect(out).toContain('The 5 oldest are not shown.');
    expect(out).not.toContain('step 4<');
    expect(out.indexOf('step 5<')).toBeLessThan(out.indexOf('step 6<'));
    expect(out.match(/<li class="crumb/g)).toHaveLength(BREADCRUMBS_SHOWN);
  });

  it('shows nothing for an event without breadcrumbs', () => {
    expect(breadcrumbsView({}, EVENT).value).toBe('');
  });
});
