/**
 * @module http/params
 * Numbers in paths and query strings. `Number()` reads `' '`, `0x0`, `0b0`, `1e1` and `+1` as
 * numbers, so every spelling of a number would name the same resource; only canonical decimal
 * (no sign, no leading zeros, no whitespace) is accepted, so each number has one spelling.
 *
 * The schema reads a string (a path or query string holds text), but what it names is an
 * integer: `INTEGER_PARAMS` records each one's range, so the HTTP contract (src/openapi) says
 * `type: integer` with that range, and a client generated from it passes numbers.
 */
import * as z from 'zod';

/** Every `decimalParam` schema, with its range, for the OpenAPI document. */
export const INTEGER_PARAMS = z.registry<{ minimum: number; maximum: number }>();

const CANONICAL_DECIMAL = /^(?:0|[1-9][0-9]*)$/;

/**
 * An integer from `min` (0 by default) to `max`, written in canonical decimal.
 *
 * @example
 * decimalParam(10_000).safeParse('12').data // 12
 * decimalParam(10_000).safeParse('0x0').success // false
 * decimalParam(100, 1).safeParse('0').error // 'must be between 1 and 100'
 */
export function decimalParam(max: number, min = 0) {
  const range = min > 0 ? `must be between ${min} and ${max}` : `must be at most ${max}`;
  const schema = z
    .string()
    .max(String(max).length, range)
    .regex(CANONICAL_DECIMAL, 'must be a whole number in plain decimal, e.g. 0 or 12')
    .transform(Number)
    .pipe(z.number().min(min, range).max(max, range));
  INTEGER_PARAMS.add(schema, { minimum: min, maximum: max });
  return schema;
}
