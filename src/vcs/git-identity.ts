// Author and committer names come from user profiles. git parses `Name <email>` itself, so a name holding
// `<`, `>` or a newline could forge a different identity (or a second header line) in the commit object.

/** A person as git records them. */
export interface GitIdentity {
  name: string;
  email: string;
}

/** Used for merge commits and as committer when the caller configures none (Weblate: "Weblate <noreply@weblate.org>"). */
export const DEFAULT_COMMITTER: GitIdentity = { name: 'Glossa', email: 'noreply@glossa.invalid' };

/** An identity git cannot record faithfully. */
export class GitIdentityError extends Error {
  override readonly name = 'GitIdentityError';
}

const FORBIDDEN = /[<>\u0000-\u001f\u007f]/;

/** Throws {@link GitIdentityError} unless name and email can be written into a commit header unchanged. */
export function assertGitIdentity(identity: GitIdentity): void {
  const name = identity.name.trim();
  const email = identity.email.trim();
  if (name === '' || FORBIDDEN.test(identity.name)) {
    throw new GitIdentityError(`"${identity.name}" cannot be used as a git author name.`);
  }
  if (email === '' || FORBIDDEN.test(identity.email) || /\s/.test(email)) {
    throw new GitIdentityError(`"${identity.email}" cannot be used as a git author e-mail.`);
  }
}

/** `Name <email>`, the form `git commit --author` expects. */
export function formatGitIdentity(identity: GitIdentity): string {
  assertGitIdentity(identity);
  return `${identity.name.trim()} <${identity.email.trim()}>`;
}

/** Environment naming author and committer; the committer is also the author when none is given (merges). */
export function identityEnvironment(committer: GitIdentity, author: GitIdentity = committer): Record<string, string> {
  assertGitIdentity(committer);
  assertGitIdentity(author);
  return {
    GIT_AUTHOR_NAME: author.name.trim(),
    GIT_AUTHOR_EMAIL: author.email.trim(),
    GIT_COMMITTER_NAME: committer.name.trim(),
    GIT_COMMITTER_EMAIL: committer.email.trim(),
  };
}
