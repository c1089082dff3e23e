/**
 * @module lib/unreachable
 * The end of an exhaustive `switch`: a new member of the union fails to compile until it is
 * handled, and a value that slips past the types at run time fails loudly.
 */

export function unreachable(value: never, what = 'value'): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}
