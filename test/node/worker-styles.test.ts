// The inspector's stylesheet goes into the Worker's upload minified (scripts/worker-rewrites
// `minifiedStyles`, issue 56 goal 4): bundled here with and without the plugin, the upload's
// STYLES is esbuild's minified CSS of the source's, with every rule; a module of another shape
// (a substitution in the template) fails the build instead of shipping unminified.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build, transform, type Plugin } from 'esbuild';
import { minifiedStyles } from '../../scripts/worker-rewrites.ts';
import { STYLES } from '../../src/views/styles.ts';

async function bundledStyles(entry: string, plugins: Plugin[]): Promise<string> {
  const result = await build({ entryPoints: [entry], bundle: true, format: 'esm', write: false, minify: true, plugins, logLevel: 'silent' });
  const text = result.outputFiles[0]?.text ?? '';
  const module = (await import(`data:text/javascript;base64,${Buffer.from(text).toString('base64')}`)) as { STYLES: string };
  return module.STYLES;
}

const rules = (css: string) => (css.match(/\{/g) ?? []).length;
const temp = mkdtempSync(join(tmpdir(), 'groundwork-styles-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("the Worker build's stylesheet", () => {
  it("is the source's stylesheet minified, every rule kept", async () => {
    const [plain, minified] = await Promise.all([bundledStyles('src/views/styles.ts', []), bundledStyles('src/views/styles.ts', [minifiedStyles()])]);
    expect(plain).toBe(STYLES);
    expect(minified).toBe((await transform(STYLES, { loader: 'css', minify: true })).code.trim());
    expect(minified.length).toBeLessThan(STYLES.length * 0.9);
    expect(rules(minified)).toBe(rules(STYLES));
    for (const selector of ['.o-included', 'dl.facts dd', 'td.num', '.badge']) expect(minified).toContain(selector);
  });

  it('fails the build for a stylesheet module it cannot minify as written', async () => {
    const views = join(temp, 'src', 'views');
    mkdirSync(views, { recursive: true });
    const source = readFileSync('src/views/styles.ts', 'utf8').replace(':root {', ':root { --accent: ${"#fff"};');
    writeFileSync(join(views, 'styles.ts'), source);
    await expect(bundledStyles(join(views, 'styles.ts'), [minifiedStyles()])).rejects.toThrow(/no substitution, to minify/);
  });
});
