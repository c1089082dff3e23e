// js-yaml 5 builds every tag and schema at its module's top level; the Worker's build marks those
// constructions pure (scripts/worker-rewrites `yamlConstantsPure`) so the YAML 1.1 schema, its tags
// and the dumper's schema, which lib/yaml-1.2 never uses, leave the upload. The reader is bundled
// here with and without the plugin from the installed js-yaml, so a js-yaml that changes its shape
// (or a construction that was not pure after all) fails here. The CLI's command bundles
// (scripts/build) are built with it too: a hook or context run no longer evaluates them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { build, type Plugin } from 'esbuild';
import { parseYaml12 } from '../../src/lib/yaml-1.2.ts';
import { yamlConstantsPure } from '../../scripts/worker-rewrites.ts';
import { COMMAND_BUNDLES } from '../../src/cli/command-bundles.ts';

async function bundleReader(plugins: Plugin[]): Promise<string> {
  const result = await build({ entryPoints: ['src/lib/yaml-1.2.ts'], bundle: true, format: 'esm', write: false, minify: true, plugins });
  return result.outputFiles[0]?.text ?? '';
}

const DOCUMENTS = [
  'name: deploy\nretries: 3\nratio: 0.5\nenabled: true\nowner: null\nwhen: 2026-12-06\nlist: [a, 1, ~]\n',
  '%YAML 1.1\n---\nenabled: off\n',
  'base: &b {x: 1}\nmerged:\n  <<: *b\n  y: 0x1F\n',
  'bad: [unclosed\n',
  '!!binary aGVsbG8=\n',
  '%TAG !e! tag:example.com,2000:\n---\na: !e!thing x\nb: !<tag:yaml.org,2002:str> 12\nc: "q\\u00e9"\nd: |\n  kept\n',
  'flow: {a: [b, "c", \'d\'], e: f: g}\n',
];

describe("the Worker build's js-yaml", () => {
  it("drops YAML 1.1's tags and the dumper's schema, keeps the core schema's", async () => {
    const [plain, pure] = await Promise.all([bundleReader([]), bundleReader([yamlConstantsPure()])]);
    for (const unused of ['tag:yaml.org,2002:timestamp', 'tag:yaml.org,2002:binary', 'tag:yaml.org,2002:omap', 'tag:yaml.org,2002:set']) {
      expect(plain).toContain(unused);
      expect(pure).not.toContain(unused);
    }
    for (const used of ['tag:yaml.org,2002:int', 'tag:yaml.org,2002:float', 'tag:yaml.org,2002:bool', 'tag:yaml.org,2002:null', 'tag:yaml.org,2002:str']) expect(pure).toContain(used);
  });

  it("drops the dumper's expressions of what it may write as a plain scalar, which the reader never tests", async () => {
    const [plain, pure] = await Promise.all([bundleReader([]), bundleReader([yamlConstantsPure()])]);
    // js-yaml's SRC_NB_JSON and SRC_C_INDICATOR, the parts of NS_PLAIN_FLOW_OUT and its kin.
    for (const unused of [String.raw`[\\x09\\x20-\\uD7FF\\uE000-\\uFFFF`, String.raw`[-?:,\\[\\]{}#&*!|>`]) {
      expect(plain).toContain(unused);
      expect(pure).not.toContain(unused);
    }
  });

  it('reads every document as the source does', async () => {
    const pure = await bundleReader([yamlConstantsPure()]);
    const bundled = (await import(`data:text/javascript;base64,${Buffer.from(pure).toString('base64')}`)) as { parseYaml12: typeof parseYaml12 };
    for (const text of DOCUMENTS) expect(bundled.parseYaml12(text)).toEqual(parseYaml12(text));
  });
});

describe("the CLI's command bundles", () => {
  it("hold no YAML 1.1 tag or dumper's schema, and still read YAML (dist/commands, as built)", () => {
    for (const name of Object.keys(COMMAND_BUNDLES)) {
      const bundle = readFileSync(new URL(`../../dist/commands/${name}.cjs`, import.meta.url), 'utf8');
      for (const unused of ['tag:yaml.org,2002:timestamp', 'tag:yaml.org,2002:binary', 'tag:yaml.org,2002:omap', 'tag:yaml.org,2002:set']) expect(bundle, name).not.toContain(unused);
      if (bundle.includes('tag:yaml.org,2002:')) expect(bundle, name).toContain('tag:yaml.org,2002:int');
    }
  });
});
