import { CLOCK, FixedClock } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { errorRecord, projectAccess } from '../../testing/records';
import type { AlertRules, WebhookRecord } from '../alerting/alert.types';
import { ErrorTrackingErrorCode } from '../common/error-tracking.errors';
import { AlertComposer, webhookBody } from './alert-content';
import type { AlertContent } from './alert-content';
import { AlertMailer } from './alert-mailer';
import { AlertsKeyCheck, AlertsKeyMismatchError } from './alerts-key-check';
import { AlertsRepository } from './alerts.repository';
import { AlertsService } from './alerts.service';
import { TokenCipher } from './token-cipher';
import { WebhookDispatcher } from './webhook-dispatcher';

const NOW = new Date('2026-06-01T10:00:00.000Z');
const URL = 'https://hooks.example.com/errors';
const HOOK: WebhookRecord = {
  id: 6,
  projectId: 3,
  url: URL,
  hasToken: false,
  errorTrackingEvents: true,
  enableSslVerification: true,
  createdAt: NOW,
};

function urlOfLength(length: number): string {
  return `${URL}?${'x'.repeat(length - URL.length - 1)}`;
}

describe('AlertsService', () => {
  let service: AlertsService;
  let repository: jest.Mocked<AlertsRepository>;
  let dispatcher: jest.Mocked<WebhookDispatcher>;
  let keyCheck: jest.Mocked<AlertsKeyCheck>;
  let composer: jest.Mocked<AlertComposer>;
  let mailer: jest.Mocked<AlertMailer>;
  const cipher = new TokenCipher('alerts key');
  const access = projectAccess();

  /** The dispatcher's cipher: none when ALERTS_ENCRYPTION_KEY is unset. */
  function useCipher(value: TokenCipher | undefined): void {
    Object.assign(dispatcher, { cipher: value });
  }

  beforeEach(async () => {
    const built = await newTestService(AlertsService, [
      { provide: CLOCK, useValue: new FixedClock(NOW) },
    ]);
    service = built.sut;
    repository = built.mock(AlertsRepository);
    dispatcher = built.mock(WebhookDispatcher);
    keyCheck = built.mock(AlertsKeyCheck);
    composer = built.mock(AlertComposer);
    mailer = built.mock(AlertMailer);
    useCipher(cipher);
    dispatcher.policy.mockReturnValue({
      allowLocal: false,
      ownHost: 'errors.example.com',
    });
    repository.createHook.mockResolvedValue(HOOK);
    repository.updateHook.mockResolvedValue(HOOK);
  });

  it('tells whether e-mail alerts are on as the mailer does', () => {
    let enabled = true;
    Object.defineProperty(mailer, 'enabled', { get: () => enabled });
    expect(service.emailEnabled).toBe(true);
    enabled = false;
    expect(service.emailEnabled).toBe(false);
  });

  it("reads the project's rules, Project Not Found when its row is gone", async () => {
    const rules: AlertRules = {
      frequentThreshold: 100,
      frequentWindowMinutes: 60,
    };
    repository.rules.mockResolvedValueOnce(rules);
    await expect(service.rules(access)).resolves.toBe(rules);
    expect(repository.rules).toHaveBeenCalledWith(3);
    repository.rules.mockResolvedValueOnce(undefined);
    await expect(service.rules(access)).rejects.toMatchObject({
      code: ErrorTrackingErrorCode.ProjectNotFound,
    });
  });

  it('stores the rules and answers them', async () => {
    const rules: AlertRules = {
      frequentThreshold: null,
      frequentWindowMinutes: 60,
    };
    await expect(service.setRules(access, rules)).resolves.toBe(rules);
    expect(repository.setRules).toHaveBeenCalledWith(3, rules);
  });

  describe('createHook', () => {
    it('stores a hook with its token sealed by the key, both flags on by default', async () => {
      await expect(
        service.createHook(access, { url: URL, token: 's3cret' }),
      ).resolves.toBe(HOOK);
      expect(keyCheck.beforeSeal).toHaveBeenCalled();
      const [projectId, hook, now] = repository.createHook.mock.lastCall ?? [];
      expect([projectId, now]).toEqual([3, NOW]);
      expect(hook).toMatchObject({
        url: URL,
        errorTrackingEvents: true,
        enableSslVerification: true,
      });
      expect(hook?.tokenCiphertext).not.toContain('s3cret');
      expect(cipher.decrypt(hook?.tokenCiphertext as string)).toBe('s3cret');
    });

    it('stores no token and checks no key when none is given', async () => {
      await service.createHook(access, {
        url: URL,
        errorTrackingEvents: false,
        enableSslVerification: false,
      });
      expect(repository.createHook).toHaveBeenCalledWith(
        3,
        {
          url: URL,
          tokenCiphertext: null,
          errorTrackingEvents: false,
          enableSslVerification: false,
        },
        NOW,
      );
      expect(keyCheck.beforeSeal).not.toHaveBeenCalled();
    });

    it.each([
      ['no URL', undefined, 'is invalid'],
      ['a URL that is no URL', 'not a url', 'is invalid'],
      [
        'a URL over 2048 characters',
        urlOfLength(2_049),
        'is too long (maximum is 2048 characters)',
      ],
      [
        'a URL of this instance',
        'https://errors.example.com/hook',
        'is blocked: Requests to this instance are not allowed',
      ],
      [
        'a URL on the local network',
        'http://10.0.0.5/hook',
        'is blocked: Requests to the local network are not allowed',
      ],
    ])('refuses %s as a validation error of url', async (_, url, problem) => {
      await expect(service.createHook(access, { url })).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.ValidationFailed,
        details: { fields: { url: [problem] } },
      });
      expect(repository.createHook).not.toHaveBeenCalled();
    });

    it('takes a URL of 2048 characters', async () => {
      await service.createHook(access, { url: urlOfLength(2_048) });
      expect(repository.createHook).toHaveBeenCalled();
    });

    it('checks URLs by the dispatcher’s policy', async () => {
      dispatcher.policy.mockReturnValue({ allowLocal: true, ownHost: '' });
      await service.createHook(access, { url: 'http://10.0.0.5/hook' });
      expect(repository.createHook).toHaveBeenCalled();
    });

    it('refuses a token over 255 characters, and any token without a key', async () => {
      await expect(
        service.createHook(access, { url: URL, token: 'x'.repeat(256) }),
      ).rejects.toMatchObject({
        details: {
          fields: { token: ['is too long (maximum is 255 characters)'] },
        },
      });
      useCipher(undefined);
      await expect(
        service.createHook(access, { url: URL, token: 's3cret' }),
      ).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.ValidationFailed,
        details: {
          fields: {
            token: ['cannot be stored: ALERTS_ENCRYPTION_KEY is not set'],
          },
        },
      });
      expect(repository.createHook).not.toHaveBeenCalled();
    });

    it("refuses to seal a token under a key other than the stored tokens'", async () => {
      keyCheck.beforeSeal.mockRejectedValue(new AlertsKeyMismatchError());
      await expect(
        service.createHook(access, { url: URL, token: 's3cret' }),
      ).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.ValidationFailed,
        details: { fields: { token: [expect.stringMatching(/differs/)] } },
      });
      expect(repository.createHook).not.toHaveBeenCalled();
    });

    it('lets a failure of the key check other than a mismatch through', async () => {
      const failure = new Error('database is down');
      keyCheck.beforeSeal.mockRejectedValue(failure);
      await expect(
        service.createHook(access, { url: URL, token: 's3cret' }),
      ).rejects.toBe(failure);
    });
  });

  describe('updateHook', () => {
    it('changes only what is given, leaving the token alone', async () => {
      await expect(
        service.updateHook(access, 6, { enableSslVerification: false }),
      ).resolves.toBe(HOOK);
      expect(repository.updateHook).toHaveBeenCalledWith(3, 6, {
        url: undefined,
        tokenCiphertext: undefined,
        errorTrackingEvents: undefined,
        enableSslVerification: false,
      });
      expect(keyCheck.beforeSeal).not.toHaveBeenCalled();
    });

    it('removes the token for an empty one and seals a new one', async () => {
      await service.updateHook(access, 6, { token: '' });
      expect(repository.updateHook).toHaveBeenLastCalledWith(
        3,
        6,
        expect.objectContaining({ tokenCiphertext: null }),
      );
      await service.updateHook(access, 6, { url: URL, token: 'n3w' });
      const [, , changes] = repository.updateHook.mock.lastCall ?? [];
      expect(changes?.url).toBe(URL);
      expect(cipher.decrypt(changes?.tokenCiphertext as string)).toBe('n3w');
    });

    it('validates a new URL, and answers Hook Not Found for a hook the project lacks', async () => {
      await expect(
        service.updateHook(access, 6, { url: 'ftp://hooks.example.com' }),
      ).rejects.toMatchObject({
        details: {
          fields: { url: ['is blocked: Only allowed schemes are http, https'] },
        },
      });
      expect(repository.updateHook).not.toHaveBeenCalled();
      repository.updateHook.mockResolvedValue(undefined);
      await expect(
        service.updateHook(access, 6, { errorTrackingEvents: false }),
      ).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.NotFound,
        message: '404 Hook Not Found',
      });
    });
  });

  it('answers Hook Not Found for a hook the project lacks on read and delete', async () => {
    repository.findHook.mockResolvedValue(undefined);
    await expect(service.findHook(access, 6)).rejects.toMatchObject({
      message: '404 Hook Not Found',
    });
    expect(repository.findHook).toHaveBeenCalledWith(3, 6);
    repository.deleteHook.mockResolvedValue(undefined);
    await expect(service.deleteHook(access, 6)).rejects.toMatchObject({
      message: '404 Hook Not Found',
    });
    repository.deleteHook.mockResolvedValue(HOOK);
    await expect(service.deleteHook(access, 6)).resolves.toBe(HOOK);
    expect(repository.deleteHook).toHaveBeenCalledWith(3, 6);
  });

  it("lists a hook's delivery log only for a hook of the project", async () => {
    repository.findHook.mockResolvedValueOnce(undefined);
    await expect(service.attempts(access, 6, 20)).rejects.toMatchObject({
      message: '404 Hook Not Found',
    });
    expect(repository.listAttempts).not.toHaveBeenCalled();

    repository.findHook.mockResolvedValueOnce({
      ...HOOK,
      tokenCiphertext: null,
    });
    repository.listAttempts.mockResolvedValue({ attempts: [], total: 0 });
    await expect(service.attempts(access, 6, 20)).resolves.toEqual({
      attempts: [],
      total: 0,
    });
    expect(repository.listAttempts).toHaveBeenCalledWith(6, 20, 0);
  });

  describe('test', () => {
    const sample: AlertContent = {
      action: 'new',
      project: access.project,
      error: errorRecord(),
      frequency: [],
      event: undefined,
      eventId: '0'.repeat(32),
      url: 'https://errors.example.com/shop/error_tracking',
      projectUrl: 'https://errors.example.com/shop',
    };

    it('sends a sample alert once, logged as a test', async () => {
      const hook = { ...HOOK, tokenCiphertext: null };
      const outcome = { delivered: true, status: 200, durationSeconds: 0.1 };
      repository.findHook.mockResolvedValue(hook);
      composer.sample.mockReturnValue(sample);
      dispatcher.send.mockResolvedValue(outcome);
      await expect(service.test(access, 6)).resolves.toBe(outcome);
      expect(composer.sample).toHaveBeenCalledWith(access.project, NOW);
      expect(dispatcher.send).toHaveBeenCalledWith(
        hook,
        webhookBody(sample),
        expect.stringMatching(/^[0-9a-f-]{36}$/),
        { trigger: 'test', attempt: 1 },
      );
    });

    it('answers Hook Not Found without sending for a hook the project lacks', async () => {
      repository.findHook.mockResolvedValue(undefined);
      await expect(service.test(access, 6)).rejects.toMatchObject({
        message: '404 Hook Not Found',
      });
      expect(dispatcher.send).not.toHaveBeenCalled();
    });
  });

  it("reads and sets a member's e-mail opt-out for the project", async () => {
    repository.isOptedOut.mockResolvedValue(true);
    await expect(service.isOptedOut(access, 8)).resolves.toBe(true);
    expect(repository.isOptedOut).toHaveBeenCalledWith(3, 8);
    await service.setOptOut(access, 8, false);
    expect(repository.setOptOut).toHaveBeenCalledWith(3, 8, false, NOW);
  });
});
