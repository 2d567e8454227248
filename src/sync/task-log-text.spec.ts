import { SERVER_PATH, taskErrorText, taskLogText } from './task-log-text';

const context = { dataDir: '/srv/glossa/data' };

describe('taskLogText', () => {
  it('makes working copy paths relative and hides other server paths', () => {
    expect(taskLogText("fatal: Unable to create '/srv/glossa/data/vcs/demo/app/.git/index.lock': File exists.", context)).toBe(
      "fatal: Unable to create '.git/index.lock': File exists.",
    );
    expect(taskLogText("ENOTDIR: not a directory, mkdtemp '/srv/glossa/data/vcs/demo/app.cloning-XXXXXX'", context)).toBe(
      "ENOTDIR: not a directory, mkdtemp '.'",
    );
    expect(taskLogText("EEXIST: file already exists, mkdir '/srv/glossa/data/vcs/demo'", context)).toBe(
      `EEXIST: file already exists, mkdir '${SERVER_PATH}'`,
    );
    expect(taskLogText("fatal: '/home/git/repo.git' does not appear to be a git repository", context)).toBe(
      `fatal: '${SERVER_PATH}' does not appear to be a git repository`,
    );
    expect(taskLogText('open /etc/passwd failed', context)).toBe(`open ${SERVER_PATH} failed`);
  });

  it('leaves relative paths, URLs and ordinary text alone', () => {
    const lines = [
      'Cloned main into the working copy',
      'Skipping translations/xx/app.json: unknown language code "xx"',
      'Could not parse translations/de/app.json: Unexpected token } at 3:1',
      'see https://example.org/org/repo.git/info and origin/main',
    ];
    for (const line of lines) expect(taskLogText(line, context)).toBe(line);
  });

  it('removes credentials', () => {
    expect(taskLogText('fetching https://user:s3cret@example.org/r.git?private_token=s3cret', context)).toBe(
      'fetching https://example.org/r.git?private_token=***',
    );
  });

  it('takes the message of an error', () => {
    expect(taskErrorText(new Error("ENOENT: no such file or directory, open '/srv/glossa/data/vcs/p/c/x.json'"), context)).toBe(
      "ENOENT: no such file or directory, open 'x.json'",
    );
    expect(taskErrorText('plain', context)).toBe('plain');
  });
});
