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
  /** Messages still to answer with a temporary failure (`refuse`). */
  private refusals = 0;
  /** Settles when held messages may be accepted (`hold`). */
  private gate: Promise<void> = Promise.resolve();

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
          const sink = holder.sink;
          if (sink && sink.refusals > 0) {
            sink.refusals -= 1;
            const busy = new Error('Mailbox busy, try again later');
            callback(Object.assign(busy, { responseCode: 451 }));
            return;
          }
          const from = session.envelope.mailFrom;
          const mail = {
            from: from ? from.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          };
          (sink?.gate ?? Promise.resolve())
            .then(() => {
              sink?.arrivals.push(mail);
              callback();
            })
            .catch((error: Error) => callback(error));
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

  /**
   * Holds every message at its end of DATA, unanswered, until the returned
   * function is called: a server that takes its time.
   */
  hold(): () => void {
    let release = () => undefined as void;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    return release;
  }

  /** Answers the next `count` messages with a temporary failure (451). */
  refuse(count: number): void {
    this.refusals += count;
  }

  /** Resolves once `count` have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]> {
    return this.arrivals.waitFor(count, timeoutMs);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
