// The versioned reference data as shipped, so tests derive expectations from it instead of
// hard-coding counts.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const read = (name: string) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../engine/catalog/${name}`, import.meta.url)), 'utf8'));

export const catalogFile: {
  version: number;
  brands: Array<{
    slug: string;
    name: string;
    models: Array<Record<string, any> & { slug: string; name: string }>;
  }>;
} = read('catalog-data.json');

export const galleryFile: {
  version: number;
  templates: Array<Record<string, any> & { slug: string; recommended: boolean; body: Record<string, any> }>;
} = read('template-gallery.json');

// The API's order: case-insensitive name, then slug, compared byte-wise (collation-independent).
const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
const byNameThenSlug = (a: { name: string; slug: string }, b: { name: string; slug: string }) =>
  cmp(a.name.toLowerCase(), b.name.toLowerCase()) || cmp(a.slug, b.slug);

export const brandsInOrder = [...catalogFile.brands].sort(byNameThenSlug);
export const modelsOf = (brandSlug: string) =>
  [...catalogFile.brands.find((b) => b.slug === brandSlug)!.models].sort(byNameThenSlug);
