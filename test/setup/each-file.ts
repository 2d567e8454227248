import { closeGitHelper } from '../../src/vcs/git-spawner';

// After every test file (jest.config.cjs setupFilesAfterEnv): each file has its own copy of the git spawner
// module (one module registry per file), so the helper process of a file that ran git would otherwise live
// its idle time (30 s) beside the worker's next files: up to six of 41 MB each were seen at once in a run on
// the embedded database (docs/performance.md "npm test on the embedded database, session 11").
afterAll(closeGitHelper);
