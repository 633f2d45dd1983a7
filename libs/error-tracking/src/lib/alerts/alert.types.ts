export const ALERT_TRIGGERS = ['new', 'regression', 'frequent'] as const;
export type AlertTrigger = (typeof ALERT_TRIGGERS)[number];

/** A project's `frequent` rule (threshold null = off). */
export interface AlertRules {
  readonly frequentThreshold: number | null;
  readonly frequentWindowMinutes: number;
}

export interface WebhookRecord {
  readonly id: number;
  readonly projectId: number;
  readonly url: string;
  readonly hasToken: boolean;
  readonly errorTrackingEvents: boolean;
  readonly enableSslVerification: boolean;
  readonly createdAt: Date;
}

/** One request sent to a hook (the delivery log). */
export interface WebhookAttemptRecord {
  readonly id: string;
  readonly hookId: number;
  readonly eventUuid: string;
  readonly trigger: string;
  readonly attempt: number;
  readonly responseStatus: number | null;
  readonly executionDuration: number;
  readonly error: string | null;
  readonly createdAt: Date;
}

/** A delivery the worker claimed, with what it needs to send it. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly projectId: number;
  readonly channel: 'webhook' | 'email';
  readonly hookId: number | null;
  readonly userId: number | null;
  readonly eventUuid: string;
  readonly trigger: AlertTrigger;
  /** This attempt's number, from 1. */
  readonly attempt: number;
  readonly errorId: string | null;
  readonly eventId: string | null;
}

export interface AlertsOptions {
  /** `smtp://user:pass@host:port` or `smtps://...`; unset = no e-mail. */
  readonly smtpUrl?: string;
  /** The From of alert e-mails. */
  readonly from?: string;
  /** Let hooks reach loopback, link-local and private addresses. */
  readonly allowLocalTargets: boolean;
  /** Waits between attempts; one more attempt than entries, then failed. */
  readonly retryDelaysSeconds: readonly number[];
  /** How often each replica looks for due deliveries. */
  readonly pollSeconds: number;
  /** Key material for webhook secret tokens; unset = tokens refused. */
  readonly encryptionKey?: string;
}

/** About 1 min, 5 min, 30 min, 2 h, 6 h (the contract's schedule). */
export const DEFAULT_RETRY_DELAYS_SECONDS: readonly number[] = [
  60, 300, 1_800, 7_200, 21_600,
];
export const DEFAULT_ALERTS_POLL_SECONDS = 10;

export const DEFAULT_ALERTS_OPTIONS: AlertsOptions = {
  allowLocalTargets: false,
  retryDelaysSeconds: DEFAULT_RETRY_DELAYS_SECONDS,
  pollSeconds: DEFAULT_ALERTS_POLL_SECONDS,
};
