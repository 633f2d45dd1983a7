/** `application/json`, any `+json` type, with or without parameters. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const type = header.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return (
    type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type)
  );
}
