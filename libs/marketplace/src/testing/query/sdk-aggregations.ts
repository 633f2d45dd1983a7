/**
 * `_group` bodies as kinvey-js-sdk 7 builds them (lib/aggregation.js):
 * the field is quoted with its first `'` escaped, the reduce text is sent
 * as `reduce` and `reduceFn`.
 */
export type SdkAggregation = 'count' | 'sum' | 'min' | 'max' | 'average';

function quoted(field: string): string {
  return field.replace("'", "\\'");
}

const REDUCERS: Record<
  SdkAggregation,
  (field: string) => [Record<string, number>, string]
> = {
  count: () => [
    { count: 0 },
    'function(doc, out) {  out.count += 1;  return out;}',
  ],
  sum: (f) => [
    { sum: 0 },
    `function(doc, out) {  out.sum += doc["${quoted(f)}"];  return out;}`,
  ],
  min: (f) => [
    { min: Number.MAX_SAFE_INTEGER },
    `function(doc, out) {  out.min = Math.min(out.min, doc["${quoted(f)}"]);  return out;}`,
  ],
  max: (f) => [
    { max: -1 * Number.MAX_SAFE_INTEGER },
    `function(doc, out) {  out.max = Math.max(out.max, doc["${quoted(f)}"]);  return out;}`,
  ],
  average: (f) => [
    { count: 0, average: 0 },
    `function(doc, out) {  out.average = (out.average * out.count + doc["${quoted(f)}"]) / (out.count + 1);  out.count += 1;  return out;}`,
  ],
};

export function sdkGroupBody(
  aggregation: SdkAggregation,
  field: string,
  key: readonly string[],
  condition: Record<string, unknown> = {},
): Record<string, unknown> {
  const [initial, reduce] = REDUCERS[aggregation](field);
  return {
    key: Object.fromEntries(key.map((k) => [k, true])),
    initial,
    reduce,
    reduceFn: reduce,
    condition,
    query: { filter: condition, sort: {}, fields: [], skip: 0 },
  };
}
