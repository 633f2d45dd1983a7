import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import { copyField } from '../toolkit/copy-field';

interface Snippet {
  readonly id: string;
  readonly sdk: string;
  readonly install: string;
  readonly code: (dsn: string) => string;
}

/** The main Sentry SDKs, each set up as its own documentation starts. */
const SNIPPETS: readonly Snippet[] = [
  {
    id: 'browser',
    sdk: 'JavaScript (browser)',
    install: 'npm install @sentry/browser',
    code: (dsn) => `import * as Sentry from '@sentry/browser';

Sentry.init({
  dsn: '${dsn}',
});`,
  },
  {
    id: 'node',
    sdk: 'Node.js',
    install: 'npm install @sentry/node',
    code: (dsn) => `const Sentry = require('@sentry/node');

Sentry.init({
  dsn: '${dsn}',
});`,
  },
  {
    id: 'python',
    sdk: 'Python',
    install: 'pip install sentry-sdk',
    code: (dsn) => `import sentry_sdk

sentry_sdk.init(
    dsn="${dsn}",
)`,
  },
  {
    id: 'go',
    sdk: 'Go',
    install: 'go get github.com/getsentry/sentry-go',
    code: (dsn) => `err := sentry.Init(sentry.ClientOptions{
	Dsn: "${dsn}",
})
if err != nil {
	log.Fatalf("sentry.Init: %s", err)
}
// Send what is queued before the program exits.
defer sentry.Flush(2 * time.Second)`,
  },
];

function snippet({ id, sdk, install, code }: Snippet, dsn: string): SafeHtml {
  const target = `snippet-${id}`;
  return html`<section class="snippet" aria-labelledby="${target}-title">
    <div class="snippet-header">
      <h3 id="${target}-title">${sdk}</h3>
      <button type="button" class="btn btn-sm" data-copy-target="${target}">
        <span class="copy-label">Copy</span
        ><span class="visually-hidden"> ${sdk}</span>
      </button>
    </div>
    <p class="help"><code>${install}</code></p>
    <pre tabindex="0"><code id="${target}">${code(dsn)}</code></pre>
  </section>`;
}

/**
 * What an enabled project without errors shows a maintainer: its DSN and
 * the few lines each main SDK needs, to copy and paste.
 */
export function firstErrorSetup(dsn: string): SafeHtml {
  return html`<section class="card first-error" aria-labelledby="first-error">
    <div class="card-header">
      <h2 id="first-error">Send your first error</h2>
    </div>
    <p>
      Error tracking is on, and no error has arrived yet. Give your
      application's Sentry SDK this DSN; its errors appear here.
    </p>
    <div class="field dsn">${copyField('first-error-dsn', 'DSN', dsn)}</div>
    <div class="snippets">${SNIPPETS.map((entry) => snippet(entry, dsn))}</div>
    <p id="copy-status" class="visually-hidden" role="status"></p>
  </section>`;
}
