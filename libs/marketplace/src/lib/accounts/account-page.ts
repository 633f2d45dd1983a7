/**
 * The small pages behind mailed links: plain HTML, no script, no outside
 * resource. Titles and texts are this file's constants; the one value from
 * a request, the token, is shown only when it matches `TOKEN`.
 */

/** What `randomToken` makes: the only text of a request a page shows. */
export const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/** Headers of every page: the token in its URL must not leak or be cached. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>body{font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}input,button{font-size:1rem;padding:.4rem;margin:.3rem 0}</style></head><body><h1>${title}</h1>${body}</body></html>`;
}

export function message(title: string, text: string): string {
  return page(title, `<p>${text}</p>`);
}

/** A form posting the token back, with the given fields before its button. */
export function form(
  title: string,
  token: string,
  fields: string,
  button: string,
): string {
  return page(
    title,
    `<form method="post"><input type="hidden" name="token" value="${token}">${fields}<button type="submit">${button}</button></form>`,
  );
}

export const PASSWORD_FIELD =
  '<p><label>New password <input type="password" name="password" minlength="8" maxlength="256" required autocomplete="new-password"></label></p>';
