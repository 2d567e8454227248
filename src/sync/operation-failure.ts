import type { Logger } from '@nestjs/common';
import { FormatParseError, FormatWriteError } from '../formats/format';
import { GitCommandError } from '../vcs/git-runner';
import { UnsafePathError } from '../vcs/safe-path';
import { ComponentScanError } from './component-scanner';
import { MsgmergeError } from './po-msgmerge';
import { WriteBackError, type OperationOutcome } from './write-back.service';

/**
 * Failures of git, of the files or of the configuration: a repository operation or upload answers them as
 * its result (`{"result": false, "detail": …}`, as Weblate's operations report a failed git command), while
 * anything else is a bug and stays an error.
 */
function isOperationFailure(error: unknown): error is Error {
  return (
    error instanceof GitCommandError || error instanceof ComponentScanError || error instanceof WriteBackError ||
    error instanceof FormatParseError || error instanceof FormatWriteError || error instanceof UnsafePathError ||
    error instanceof MsgmergeError
  );
}

/** Runs `work`; an operation failure (above) is logged as `what` and becomes the outcome. */
export async function answerOperationFailure<T extends OperationOutcome>(logger: Logger, what: string, work: () => Promise<T>): Promise<T | OperationOutcome> {
  try {
    return await work();
  } catch (error) {
    if (!isOperationFailure(error)) throw error;
    logger.warn(`${what} failed: ${error.message}`);
    return { result: false, detail: error.message };
  }
}
