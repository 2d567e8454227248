import * as path from 'node:path';
import { redactRepositoryUrlsInText } from '../vcs/repository-url-policy';

// Task logs and results are readable by anyone who has the task's URL, anonymous callers included
// (`/api/tasks/<uuid>/`, weblate-api.md §6.12). Error texts come from git, the file system and Node, which
// name server paths (`ENOTDIR: not a directory, mkdtemp '/srv/glossa/data/vcs/p/c.cloning-XXXXXX'`) and
// may quote URLs with credentials. Every line is cleaned here before it is stored (issue 10 item 10): paths
// inside the component's working copy become relative to it, other server paths are replaced, credentials
// are removed. Network failures already carry a fixed text (GitNetworkError).

/** Where the component's files are, to turn its absolute paths into relative ones. */
export interface TaskLogContext {
  dataDir: string;
}

/** What replaces an absolute server path that is not inside a working copy. */
export const SERVER_PATH = '[server path]';

// An absolute path starting a token: after a quote, a space, '(' or '=', never inside a URL (`host/path`).
const ABSOLUTE_PATH = /(^|[\s'"(=,`])\/[\w.@+~-][^\s'"(),`]*/g;

/** `text` with server paths and credentials removed, fit for a task log or result. */
export function taskLogText(text: string, context: TaskLogContext): string {
  const vcsRoot = path.join(context.dataDir, 'vcs');
  // <DATA_DIR>/vcs/<project>/<component>[.cloning-XXXXXX][/file] → file (or "." for the working copy itself).
  const workingCopy = new RegExp(`${escapeRegExp(vcsRoot)}/[^/\\s'"]+/[^/\\s'"]+?(?:\\.cloning-[^/\\s'"]+)?(?:/|(?=[\\s'"]|$))`, 'g');
  const relative = redactRepositoryUrlsInText(text).replace(workingCopy, (match) => (match.endsWith('/') ? '' : '.'));
  return relative.replace(ABSOLUTE_PATH, (_match, lead: string) => `${lead}${SERVER_PATH}`);
}

/** The message of an error thrown by a task, cleaned for its log and result. */
export function taskErrorText(error: unknown, context: TaskLogContext): string {
  return taskLogText(error instanceof Error ? error.message : String(error), context);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
