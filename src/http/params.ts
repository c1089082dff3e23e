/**
 * @module http/params
 * Numbers in paths and query strings. `Number()` reads `' '`, `0x0`, `0b0`, `1e1` and `+1` as
 * numbers, so every spelling of a number would name the same resource; only canonical decimal
 * (no sign, no leading zeros, no whitespace) is accepted, so each number has one spelling.
 */
import * as z from 'zod';

const CANONICAL_DECIMAL = /^(?:0|[1-9][0-9]*)$/;

/**
 * A non-negative integer written in canonical decimal, at most `max`.
 *
 * @example
 * decimalParam(10_000).safeParse('12').data // 12
 * decimalParam(10_000).safeParse('0x0').success // false
 */
export function decimalParam(max: number) {
  return z
    .string()
    .max(String(max).length, `must be at most ${max}`)
    .regex(CANONICAL_DECIMAL, 'must be a whole number in plain decimal, e.g. 0 or 12')
    .transform(Number)
    .pipe(z.number().max(max, `must be at most ${max}`));
}
