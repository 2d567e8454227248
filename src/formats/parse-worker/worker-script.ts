import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

// A worker thread runs JavaScript from a file. The build (`npm start`, the container image, dist/ only)
// has the compiled entry beside this module. Tests run the TypeScript sources through ts-jest in native
// ESM mode, where there is neither a compiled entry nor `__dirname`: there the sources of src/formats
// (pure code, no imports outside it but node:*) are transpiled once with the TypeScript compiler into a
// cache directory named after their content, and the worker runs that. The worker is then the real one,
// built from the current sources, and the production path never needs TypeScript.

const ENTRY = 'parse-worker.entry';

/** Path of the JavaScript file a parse worker runs. */
export function parseWorkerScript(): string {
  if (typeof __dirname === 'string') {
    const compiled = path.join(__dirname, `${ENTRY}.js`);
    if (existsSync(compiled)) return compiled;
  }
  const root = packageRoot();
  const formats = typeof __dirname === 'string' ? path.resolve(__dirname, '..') : path.join(root, 'src', 'formats');
  return path.join(transpileSources(formats, root), 'parse-worker', `${ENTRY}.js`);
}

/** The directory holding the package.json named "glossa" (Jest's rootDir when there is no `__dirname`). */
export function packageRoot(): string {
  let dir = typeof __dirname === 'string' ? __dirname : process.cwd();
  for (;;) {
    try {
      if ((JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'glossa') return dir;
    } catch {
      // no package.json here
    }
    if (path.dirname(dir) === dir) throw new Error('parse worker: cannot find the glossa package root to build the worker from its sources');
    dir = path.dirname(dir);
  }
}

function sourceFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(full, base);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path.relative(base, full)] : [];
  });
}

interface TypeScriptApi {
  transpileModule(input: string, options: { compilerOptions: Record<string, unknown>; fileName: string }): { outputText: string };
  ModuleKind: { CommonJS: number };
  ScriptTarget: { ES2022: number };
}

function transpileSources(formatsDir: string, root: string): string {
  // Resolved by name at run time: only source checkouts take this path, and they have the dev dependencies.
  const load = createRequire(path.join(root, 'package.json'));
  // The compiler's version from its package.json: loading the compiler itself takes a few hundred
  // milliseconds of the main thread, spent only when the sources changed.
  const { version } = JSON.parse(readFileSync(load.resolve('typescript/package.json'), 'utf8')) as { version: string };
  const files = sourceFiles(formatsDir).sort();
  // The checkout is part of the key: the copy links to that checkout's node_modules, so a copy made by
  // another (since deleted) checkout with the same sources must not be reused.
  const hash = createHash('sha256').update(version).update(`\0${root}`);
  const sources = files.map((file) => {
    const text = readFileSync(path.join(formatsDir, file), 'utf8');
    hash.update(`\0${file}\0${text}`);
    return { file, text };
  });
  const outDir = path.join(os.tmpdir(), `glossa-parse-worker-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(path.join(outDir, 'parse-worker', `${ENTRY}.js`))) return outDir;
  const ts = load('typescript') as TypeScriptApi;
  // Written aside and renamed into place, so concurrent test processes never see half a directory.
  const staging = `${outDir}.${process.pid}.${Date.now()}`;
  for (const { file, text } of sources) {
    const { outputText } = ts.transpileModule(text, {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, experimentalDecorators: true },
    });
    const target = path.join(staging, file.replace(/\.ts$/, '.js'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  writeFileSync(path.join(staging, 'package.json'), '{"type": "commonjs"}\n');
  // Formats may use npm parsers (yaml, @fluent/syntax): the transpiled copy resolves them from the checkout.
  symlinkSync(path.join(root, 'node_modules'), path.join(staging, 'node_modules'), 'dir');
  try {
    renameSync(staging, outDir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(path.join(outDir, 'parse-worker', `${ENTRY}.js`))) throw error;
  }
  return outDir;
}
