import { Inject, Injectable } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import { smtpTransport } from '@quitanda/kernel';
import type { Transporter } from 'nodemailer';

import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';

export interface AccountEmail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** Users' account e-mail over the gateway's SMTP settings; off without them. */
@Injectable()
export class AccountMailer implements OnApplicationShutdown {
  private transport: Transporter | undefined;

  constructor(
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  get enabled(): boolean {
    return Boolean(this.options.mail?.smtpUrl && this.options.mail.from);
  }

  async send(email: AccountEmail): Promise<void> {
    const mail = this.options.mail;
    if (!mail?.smtpUrl || !mail.from) throw new Error('E-mail is off');
    this.transport ??= smtpTransport(mail.smtpUrl);
    await this.transport.sendMail({
      from: mail.from,
      to: email.to,
      subject: email.subject,
      text: email.text,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
