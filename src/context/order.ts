/**
 * @module context/order
 * The one ordering rule: category, declared position, provider name. Entry order inside a provider
 * is kept as returned. Completion timing never enters.
 */
import { CATEGORIES, type Category } from './provider.ts';

export const DEFAULT_POSITION = 100;

interface Orderable {
  readonly name: string;
  readonly category: Category;
  readonly position?: number;
}

export function compareProviders(a: Orderable, b: Orderable): number {
  return (
    CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category) ||
    (a.position ?? DEFAULT_POSITION) - (b.position ?? DEFAULT_POSITION) ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  );
}
