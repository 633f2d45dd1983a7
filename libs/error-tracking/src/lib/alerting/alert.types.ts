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
