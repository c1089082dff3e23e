/**
 * Rendered context with each section's boundary attribute left out, for tests that compare the
 * text of notices and sections rather than the boundaries (render.test.ts pins those).
 */
export function withoutBoundaries(text: string): string {
  return text.replace(/ boundary="[0-9a-f]{16}"/g, '');
}
