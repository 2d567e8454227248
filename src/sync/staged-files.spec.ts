import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { StagedFiles } from './staged-files';

const stageDirectories = async (): Promise<string[]> => (await readdir(tmpdir())).filter((name) => name.startsWith('glossa-staged-'));

describe('StagedFiles', () => {
  it('hands the files back in the order they were added, with their bytes', async () => {
    const seen: Array<[string, string]> = [];
    await StagedFiles.using(async (stage) => {
      await stage.add('po/de.po', Buffer.from('Deutsch'));
      await stage.add('po/cs.po', Buffer.from('Čeština'));
      expect(stage.size).toBe(2);
      await stage.forEach(async (filename, content) => {
        seen.push([filename, content.toString()]);
      });
    });
    expect(seen).toEqual([
      ['po/de.po', 'Deutsch'],
      ['po/cs.po', 'Čeština'],
    ]);
  });

  it('removes its directory when the work fails', async () => {
    const before = new Set(await stageDirectories());
    let directory = '';
    await expect(
      StagedFiles.using(async (stage) => {
        await stage.add('a.po', Buffer.from('a'));
        directory = (await stageDirectories()).find((name) => !before.has(name)) ?? '';
        throw new Error('merge failed');
      }),
    ).rejects.toThrow('merge failed');
    expect(directory).not.toBe('');
    expect(existsSync(`${tmpdir()}/${directory}`)).toBe(false);
  });
});
