import { Inject, Injectable } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import { smtpTransport } from '@quitanda/kernel';
import type { Transporter } from 'nodemailer';

import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';
import type { AlertEmail } from './alert-email';

/** Alert e-mail over SMTP (nodemailer); off without SMTP_URL and ALERTS_FROM. */
@Injectable()
export class AlertMailer implements OnApplicationShutdown {
  private transport: Transporter | undefined;
  private readonly smtpUrl?: string;
  private readonly from?: string;

  constructor(
    @Inject(ERROR_TRACKING_OPTIONS) options: ErrorTrackingModuleOptions,
  ) {
    this.smtpUrl = options.alerts?.smtpUrl;
    this.from = options.alerts?.from;
  }

  get enabled(): boolean {
    return Boolean(this.smtpUrl && this.from);
  }

  /**
   * Sends one message. `messageId` is the delivery's id, the same on every
   * retry, so a mail system can drop a duplicate.
   */
  async send(to: string, email: AlertEmail, messageId: string): Promise<void> {
    if (!this.smtpUrl || !this.from) throw new Error('E-mail alerts are off');
    this.transport ??= smtpTransport(this.smtpUrl);
    await this.transport.sendMail({
      from: this.from,
      to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId: `<${messageId}@alerts.quitanda>`,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
