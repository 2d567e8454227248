import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/**
 * Files an operation prepares for a working copy before it writes any of them (a source upload rewrites
 * every translation file and must leave the working copy untouched if one of them fails). They wait in a
 * private temporary directory instead of in memory, so an operation over a hundred languages of a
 * 16 MB file holds one file at a time, not all of them.
 */
export class StagedFiles {
  private readonly staged: Array<{ filename: string; file: string }> = [];

  private constructor(private readonly directory: string) {}

  static async create(): Promise<StagedFiles> {
    return new StagedFiles(await mkdtemp(path.join(tmpdir(), 'glossa-staged-')));
  }

  /** Runs `work` with a fresh stage and removes the stage's directory afterwards, whatever happened. */
  static async using<T>(work: (stage: StagedFiles) => Promise<T>): Promise<T> {
    const stage = await StagedFiles.create();
    try {
      return await work(stage);
    } finally {
      await rm(stage.directory, { recursive: true, force: true });
    }
  }

  get size(): number {
    return this.staged.length;
  }

  /** Keeps `content` for the working-copy path `filename`. */
  async add(filename: string, content: Buffer): Promise<void> {
    const file = path.join(this.directory, String(this.staged.length));
    await writeFile(file, content);
    this.staged.push({ filename, file });
  }

  /** Hands each staged file to `write`, in the order they were added, one in memory at a time. */
  async forEach(write: (filename: string, content: Buffer) => Promise<void>): Promise<void> {
    for (const { filename, file } of this.staged) await write(filename, await readFile(file));
  }
}
