import { html } from '../html/html';
import type { AlertContent } from './alert-content';

const HEADLINE: Record<string, string> = {
  new: 'New error',
  regression: 'Regression: a resolved error is back',
  frequent: 'Frequent error',
};

export interface AlertEmail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** One alert as an e-mail (plain text and HTML, every value escaped). */
export function alertEmail(
  content: AlertContent,
  settingsUrl: string,
): AlertEmail {
  const { error, project } = content;
  const headline = HEADLINE[content.action] ?? 'Error alert';
  const facts: Array<[string, string]> = [
    ['Project', project.name],
    ['Events', String(error.count)],
    ['Users affected', String(error.userCount)],
    [
      'First seen',
      `${error.firstSeen.toISOString()}${error.firstRelease ? ` (release ${error.firstRelease})` : ''}`,
    ],
    [
      'Last seen',
      `${error.lastSeen.toISOString()}${error.lastRelease ? ` (release ${error.lastRelease})` : ''}`,
    ],
  ];
  if (error.culprit) facts.splice(1, 0, ['Culprit', error.culprit]);
  const subject = `[${project.name}] ${headline}: ${error.title}`
    .replace(/[\r\n]+/g, ' ')
    .slice(0, 200);
  const text = [
    `${headline} in ${project.name}`,
    '',
    error.title,
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    `Open the error: ${content.url}`,
    '',
    `You receive this as a member of ${project.name}. Opt out on ${settingsUrl}`,
  ].join('\n');
  const body = html`<!doctype html>
    <html lang="en">
      <body style="font-family: sans-serif; color: #1f1e24">
        <p style="color: #535158">${headline} in ${project.name}</p>
        <h1 style="font-size: 18px">${error.title}</h1>
        <table>
          ${facts.map(
            ([label, value]) =>
              html`<tr>
                <th align="left" style="padding-right: 12px">${label}</th>
                <td>${value}</td>
              </tr>`,
          )}
        </table>
        <p><a href="${content.url}">Open the error</a></p>
        <p style="color: #535158; font-size: 12px">
          You receive this as a member of ${project.name}.
          <a href="${settingsUrl}">Opt out</a>
        </p>
      </body>
    </html>`;
  return { subject, text, html: body.toString() };
}
