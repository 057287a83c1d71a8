#!/usr/bin/env node
// A promise nobody awaits is a write that may land after its answer, or an error nobody sees. With
// every repository asynchronous, a call whose `await` was forgotten still type-checks, so
// this check fails on any expression statement in src/ whose value is a promise, unless it is
// marked as meant: `void promise` (fire and forget, its errors handled inside).
import ts from 'typescript';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const configPath = path.join(root, 'tsconfig.json');
const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();

// Fastify's reply is thenable (awaiting it waits for the response) but its methods return it for
// chaining: a statement `reply.header(…)` is not a dropped promise.
const CHAINING_THENABLES = new Set(['FastifyReply']);

const isPromise = (type) => {
  if (type.isUnion()) return type.types.some(isPromise);
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  if (symbol && CHAINING_THENABLES.has(symbol.getName())) return false;
  if (symbol && (symbol.getName() === 'Promise' || symbol.getName() === 'PromiseLike')) return true;
  const then = type.getProperty('then');
  return !!then && !!symbol && symbol.getName() !== 'Object';
};

const problems = [];
for (const sf of program.getSourceFiles()) {
  const file = path.relative(root, sf.fileName);
  if (!file.startsWith('src/') || file.endsWith('.test.ts') || sf.isDeclarationFile) continue;
  const visit = (node) => {
    if (ts.isExpressionStatement(node)) {
      let expr = node.expression;
      while (ts.isParenthesizedExpression(expr)) expr = expr.expression;
      const assignment = ts.isBinaryExpression(expr) && expr.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && expr.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
      // A chain that ends by handling the rejection (`.catch(f)`, `.then(f, g)`) is handled.
      const handled =
        ts.isCallExpression(expr) &&
        ts.isPropertyAccessExpression(expr.expression) &&
        (expr.expression.name.text === 'catch' || (expr.expression.name.text === 'then' && expr.arguments.length === 2));
      const skip = ts.isVoidExpression(expr) || ts.isAwaitExpression(expr) || assignment || handled;
      if (!skip && isPromise(checker.getTypeAtLocation(expr))) {
        const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
        problems.push(`${file}:${line + 1}: a promise nobody awaits: ${node.getText(sf).slice(0, 100)}`);
      }
    }
    // An async callback whose promise an array method drops.
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ['forEach', 'filter', 'some', 'every', 'find', 'findIndex', 'sort'].includes(node.expression.name.text)) {
      const cb = node.arguments[0];
      if (cb && (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb)) && cb.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) {
        const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
        problems.push(`${file}:${line + 1}: an async callback of .${node.expression.name.text}() (its promise is dropped)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} floating promise(s): await them, or write \`void\` where dropping one is meant.`);
  process.exit(1);
}
console.log('no floating promises');
