/** JSON with every object's keys sorted: equal documents, equal text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [
          key,
          canonical((value as Record<string, unknown>)[key]),
        ]),
    );
  return value;
}

/**
 * A server's answer to a workload's probe as comparable text: status and
 * canonical JSON body, its own address masked (signed URLs name it).
 */
export async function probeAnswer(
  url: string,
  probe: { path: string; headers: Record<string, string> },
): Promise<string> {
  const res = await fetch(url + probe.path, { headers: probe.headers });
  const text = (await res.text()).split(url).join('http://SERVER');
  let body: unknown = text;
  try {
    body = canonical(JSON.parse(text));
  } catch {
    // compared as text
  }
  return `${res.status} ${JSON.stringify(body)}`;
}
