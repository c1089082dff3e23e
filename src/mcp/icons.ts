/**
 * @module mcp/icons
 * Groundwork's mark, for the `icons` MCP lets a server give itself and its tools (2026-07-28
 * base protocol, "icons"): a 48-unit SVG as a `data:` URI, so it needs no fetch, no same-origin
 * question and no network on the local server. It holds no script, text or external reference:
 * clients are told to treat SVG with care, and this one gives them nothing to be careful of.
 */
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" rx="10" fill="#1f3a2e"/><path d="M12 34h24M15 28h18M18 22h12M21 16h6" stroke="#9fd8b4" stroke-width="3" stroke-linecap="round"/></svg>';

export interface Icon {
  src: string;
  mimeType: string;
  sizes: string[];
}

let icon: Icon | undefined;

export function groundworkIcons(): Icon[] {
  icon ??= { src: `data:image/svg+xml;base64,${btoa(SVG)}`, mimeType: 'image/svg+xml', sizes: ['any'] };
  return [icon];
}
