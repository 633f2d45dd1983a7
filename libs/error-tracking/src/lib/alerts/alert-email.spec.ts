import type { AlertContent } from './alert-content';
import { alertEmail } from './alert-email';

function content(overrides: Partial<AlertContent['error']> = {}): AlertContent {
  const at = new Date('2026-11-22T10:00:00.000Z');
  return {
    action: 'regression',
    project: {
      id: 7,
      name: 'Shop <admin>',
      path: 'shop',
      description: '',
      createdAt: at,
      trackingActive: true,
      trackingIntegrated: true,
    },
    error: {
      id: '42',
      projectId: 7,
      title: 'TypeError: <img src=x onerror=alert(1)>',
      type: 'TypeError',
      message: '',
      culprit: 'render (app.js)',
      status: 'unresolved',
      count: 12,
      userCount: 3,
      firstSeen: at,
      lastSeen: at,
      level: 'error',
      logger: null,
      platform: 'javascript',
      firstRelease: 'shop@1.0.0',
      lastRelease: 'shop@1.2.0',
      lastEventId: 'a'.repeat(32),
      issueIid: null,
      groupingVersion: 1,
      ...overrides,
    },
    frequency: [],
    event: undefined,
    eventId: 'a'.repeat(32),
    url: 'https://errors.example.com/projects/7/error_tracking/42',
    projectUrl: 'https://errors.example.com/projects/7',
  };
}

describe('alert e-mail', () => {
  const settings = 'https://errors.example.com/projects/7/settings/monitor';

  it('says what happened, with counts, first and last seen and links', () => {
    const mail = alertEmail(content(), settings);
    expect(mail.subject).toBe(
      '[Shop <admin>] Regression: a resolved error is back: TypeError: <img src=x onerror=alert(1)>',
    );
    expect(mail.text).toContain('Events: 12');
    expect(mail.text).toContain('Users affected: 3');
    expect(mail.text).toContain(
      'First seen: 2026-11-22T10:00:00.000Z (release shop@1.0.0)',
    );
    expect(mail.text).toContain(
      'Last seen: 2026-11-22T10:00:00.000Z (release shop@1.2.0)',
    );
    expect(mail.text).toContain('Culprit: render (app.js)');
    expect(mail.text).toContain(`Open the error: ${content().url}`);
    expect(mail.text).toContain(settings);
  });

  it('escapes every value in the HTML part', () => {
    const mail = alertEmail(content(), settings);
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<admin>');
    expect(mail.html).toContain(
      'TypeError: &lt;img src=x onerror=alert(1)&gt;',
    );
    expect(mail.html).toContain(`href="${content().url}"`);
  });

  it('keeps the subject on one line, however the title was written', () => {
    const mail = alertEmail(
      content({ title: 'Error: line one\r\nBcc: victim@example.com' }),
      settings,
    );
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject.length).toBeLessThanOrEqual(200);
  });
});
