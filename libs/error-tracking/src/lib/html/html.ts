/** A fragment of HTML that is already safe to emit as is. */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

const SPECIAL = /[&<>"'`]/;

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  // Most text has nothing to escape: a test is cheaper than a replace.
  if (!SPECIAL.test(text)) return text;
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c] as string);
}

export type HtmlValue =
  | SafeHtml
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  // A number's text has nothing to escape (charts interpolate hundreds).
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * The page templates: every interpolated value is escaped unless it is a
 * `SafeHtml` (another `html` result, or `trustedHtml` of sanitised output);
 * arrays are concatenated; null, undefined and false render nothing.
 */
export function html(
  strings: TemplateStringsArray,
  ...values: HtmlValue[]
): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Marks output of a sanitiser or an SVG builder as safe. Never user input. */
export function trustedHtml(value: string): SafeHtml {
  return new SafeHtml(value);
}
