import type { AddressInfo } from 'node:net';

import { SMTPServer } from 'smtp-server';

import { Arrivals } from './arrivals';

export interface ReceivedMail {
  readonly from: string;
  /** Envelope recipients (RCPT TO). */
  readonly to: string[];
  /** The message as sent: headers and MIME body. */
  readonly raw: string;
}

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1 that keeps
 * every message it accepts; it requires the given credentials.
 */
export class SmtpSink {
  private readonly arrivals = new Arrivals<ReceivedMail>('e-mails');
  readonly messages: ReceivedMail[] = this.arrivals.items;

  private constructor(
    private readonly server: SMTPServer,
    readonly url: string,
  ) {}

  static async start(
    credentials = { user: 'alerts', pass: 's3cret-pass' },
  ): Promise<SmtpSink> {
    const holder: { sink?: SmtpSink } = {};
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (
          auth.username === credentials.user &&
          auth.password === credentials.pass
        )
          callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const from = session.envelope.mailFrom;
          holder.sink?.arrivals.push({
            from: from ? from.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve()),
    );
    const { port } = server.server.address() as AddressInfo;
    holder.sink = new SmtpSink(
      server,
      `smtp://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@127.0.0.1:${port}`,
    );
    return holder.sink;
  }

  /** Resolves once `count` have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]> {
    return this.arrivals.waitFor(count, timeoutMs);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
