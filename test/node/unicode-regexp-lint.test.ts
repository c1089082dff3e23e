/**
 * No regular expression with a Unicode property class (`\p{…}`) is made at a module's top level
 * in src/: V8 parses one as it is made, 0.1 to 0.5 ms each, and a module's top level runs in every
 * CLI process and every cold Worker isolate, whether the expression is used or not (issue 56).
 * Inside a function (a `once` or `asciiFirst` maker, a lazy schema, a function that uses
 * it) it is made when it is needed. Read with TypeScript's parser, as tsc reads it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Where `text` makes a regular expression with a property class outside any function. */
export function topLevelPropertyClasses(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node, inFunction: boolean): void => {
    const makesOne =
      (ts.isRegularExpressionLiteral(node) && node.text.includes('\\p{')) ||
      (ts.isNewExpression(node) && node.expression.getText(file) === 'RegExp' && (node.arguments?.[0]?.getText(file).includes('\\p{') ?? false));
    if (makesOne && !inFunction) found.push(`${relative(ROOT, fileName)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`);
    ts.forEachChild(node, (child) => visit(child, inFunction || ts.isFunctionLike(node)));
  };
  visit(file, false);
  return found;
}

describe('regular expressions with Unicode property classes in src/', () => {
  it('are made inside a function, never at a module\'s top level', () => {
    const found = sourceFiles(join(ROOT, 'src')).flatMap((path) => topLevelPropertyClasses(path, readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });

  it('finds one at the top level, in a declaration or an argument, and passes one in a function', () => {
    const text = [
      'const A = /\\p{L}/u;',
      "export const B = pair(/[a-z]/, new RegExp('\\\\p{Lu}', 'u'));",
      'const C = once(() => /\\p{L}/u);',
      'function d(text: string) { return /\\p{Cc}/u.test(text); }',
      'const E = /[a-z]/u;',
    ].join('\n');
    expect(topLevelPropertyClasses(join(ROOT, 'src/x.ts'), text)).toEqual(['src/x.ts:1', 'src/x.ts:2']);
  });
});
