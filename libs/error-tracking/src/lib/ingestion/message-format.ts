import { isJsonObject } from '../sentry-event/event-json';
import { exactIntegerText } from './payload-json';

/**
 * Placeholders of a log message, as Relay's logentry normalisation fills
 * them: `%%`, printf-style `%s` (positional) and `%(name)s` (named), and
 * brace-style `{0}` (positional) and `{name}` (named).
 */
const PLACEHOLDER =
  /%%|%\((\w+)\)[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsj]|%[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsj]|\{(\d+)\}|\{(\w+)\}/g;

function shown(value: unknown): string {
  const exact = exactIntegerText(value);
  if (exact !== undefined) return exact;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The template with its parameters substituted; unknown placeholders stay. */
export function formatMessage(template: string, params: unknown): string {
  const list = Array.isArray(params) ? params : undefined;
  const named = isJsonObject(params) ? params : undefined;
  if (!list && !named) return template;
  let next = 0;
  return template.replace(
    PLACEHOLDER,
    (match, name?: string, index?: string, key?: string) => {
      if (match === '%%') return '%';
      if (index !== undefined)
        return list && Number(index) < list.length
          ? shown(list[Number(index)])
          : match;
      const field = name ?? key;
      if (field !== undefined)
        return named && Object.hasOwn(named, field)
          ? shown(named[field])
          : match;
      return list && next < list.length ? shown(list[next++]) : match;
    },
  );
}
