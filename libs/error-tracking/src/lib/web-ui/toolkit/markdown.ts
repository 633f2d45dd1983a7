import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

import { trustedHtml } from '../../html/html';
import type { SafeHtml } from '../../html/html';

// Raw HTML in the source stays text; links are checked by markdown-it's
// validateLink and again by the sanitiser (http, https, mailto only).
const markdown = new MarkdownIt({ html: false, linkify: true });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags.filter((tag) => tag !== 'img'),
    'del',
    's',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    code: ['class'],
    ol: ['start'],
    th: ['align'],
    td: ['align'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener' }),
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
};

/** Issue descriptions: CommonMark by markdown-it, then sanitised. */
export function renderMarkdown(source: string): SafeHtml {
  return trustedHtml(sanitizeHtml(markdown.render(source), SANITIZE));
}
