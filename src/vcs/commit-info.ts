// The commit object of Weblate's repository status (`remote_commit`, weblate-api.md §6.10). Weblate parses
// `git log --format=fuller`; a NUL-separated custom format gives the same fields without guessing where a
// name ends and without being fooled by a commit message that looks like a header.

/** Commit details in the field order of Weblate's repository status. */
export interface CommitInfo {
  revision: string;
  shortrevision: string;
  /** `Name <email>` as git prints it. */
  author: string;
  author_name: string;
  author_email: string;
  /** ISO 8601 with the author's own UTC offset, as recorded in the commit (e.g. `2024-01-02T03:04:05+01:00`). */
  authordate: string;
  commit: string;
  commit_name: string;
  commit_email: string;
  commitdate: string;
  /** Full message without the trailing newline. */
  message: string;
  /** First line of the message. */
  summary: string;
}

/** `git log` format producing the fields {@link parseCommitInfo} reads, NUL-separated, body last. */
export const COMMIT_INFO_FORMAT = '--format=%H%x00%h%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B';

/** Parses one commit printed with {@link COMMIT_INFO_FORMAT}. */
export function parseCommitInfo(output: string): CommitInfo {
  const fields = output.split('\0');
  if (fields.length < 9) throw new Error('Unexpected git log output while reading commit details.');
  const [revision, shortrevision, authorName, authorEmail, authordate, commitName, commitEmail, commitdate] = fields;
  // A message written with `git commit-tree` can contain NUL; keep such bytes inside the message.
  const message = fields.slice(8).join('\0').replace(/\s+$/, '');
  return {
    revision,
    shortrevision,
    author: `${authorName} <${authorEmail}>`,
    author_name: authorName,
    author_email: authorEmail,
    authordate,
    commit: `${commitName} <${commitEmail}>`,
    commit_name: commitName,
    commit_email: commitEmail,
    commitdate,
    message,
    summary: message.split('\n', 1)[0] ?? '',
  };
}
