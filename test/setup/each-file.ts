import { enterTestFile, leaveTestFile } from '../support/checkout-locks';

// Around every test file (jest.config.cjs setupFilesAfterEnv): the file is recorded as running while its tests
// run, so that another worker's embedded first start (about 0.8 GB) waits for it, and the file does not begin
// while such a first start runs (test/support/checkout-locks.ts; issue 15 item 5: `npm test` under 2 GB).
beforeAll(enterTestFile);
afterAll(leaveTestFile);
